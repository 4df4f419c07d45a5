/* The command table: one row per front end, each in analyzer/cmd_<name>.c
 * as `int cmd_<name>(int argc, char **argv)` returning an exit code.
 * COMMAND(name, one-line help) */
COMMAND(audit, "analyze files, directories or whole kernel trees")
COMMAND(review, "review a mailed patch series: mbox in, review mails out")
COMMAND(check, "new findings in the staged changes, a commit or a range (pre-commit)")
COMMAND(hook, "install or remove the git pre-commit hook")
COMMAND(explain, "what the page allocator can do at one allocation site, on this tree")
COMMAND(facts, "build the tree's facts in the cache, or show one key's joined value")
COMMAND(merge, "join the JSON outputs of several runs (shards) into one report")
COMMAND(rules, "the rules, their severities and what each finds (--format json for tools)")
COMMAND(cc, "the checker kbuild runs: make C=1 CHECK=\"gfpaudit cc\"")
