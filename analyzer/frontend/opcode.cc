// The one piece of the C++ API gfpaudit uses: libclang 14 has no call that
// names the operator of a unary or binary expression, and reading it from the
// source fails inside macro bodies and pasted tokens.  A CXCursor for an
// expression carries the clang::Stmt in data[1] (libclang's CXCursor.cpp,
// stable since LLVM 3.x); getOpcode() and the operator spellings are inline
// in the headers, so nothing from libclang-cpp is linked.
#include <clang-c/Index.h>
#include <clang/AST/Expr.h>

using namespace clang;

static const char *binary_spelling(BinaryOperatorKind k)
{
	switch (k) {
#define BINARY_OPERATION(Name, Spelling) case BO_##Name: return Spelling;
#include <clang/AST/OperationKinds.def>
	default: return nullptr;
	}
}

static const char *unary_spelling(UnaryOperatorKind k)
{
	switch (k) {
#define UNARY_OPERATION(Name, Spelling) case UO_##Name: return Spelling;
#include <clang/AST/OperationKinds.def>
	default: return nullptr;
	}
}

extern "C" const char *gfpaudit_cursor_operator(CXCursor c, int *postfix)
{
	*postfix = 0;
	if (!clang_isExpression(clang_getCursorKind(c)))
		return nullptr;
	const Stmt *s = static_cast<const Stmt *>(c.data[1]);
	if (!s)
		return nullptr;
	if (const auto *b = dyn_cast<BinaryOperator>(s))
		return binary_spelling(b->getOpcode());
	if (const auto *u = dyn_cast<UnaryOperator>(s)) {
		*postfix = u->isPostfix();
		return unary_spelling(u->getOpcode());
	}
	return nullptr;
}
