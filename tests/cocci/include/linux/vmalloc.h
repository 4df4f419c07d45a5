/* a test input written for gfpaudit */
#include "kstub.h"
