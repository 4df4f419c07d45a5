#ifndef _KMODEL_LINUX_FIRMWARE_H
#define _KMODEL_LINUX_FIRMWARE_H
#include <linux/types.h>

struct device;
struct firmware {
	size_t size;
	const u8 *data;
	void *priv;
};
int request_firmware(const struct firmware **fw, const char *name, struct device *device);
void release_firmware(const struct firmware *fw);

#endif
