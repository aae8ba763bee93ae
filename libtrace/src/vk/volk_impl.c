/* Builds the system copy of volk (Debian: libvulkan-volk-dev). */
#include <volk.c>
