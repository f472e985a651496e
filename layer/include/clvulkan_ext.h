/* clvulkan's diagnostic entry points, beyond OpenCL.
 *
 * Get them with clGetExtensionFunctionAddressForPlatform(platform, name).
 * They are not OpenCL extensions: no extension string names them, and they
 * may change with clvulkan. */
#ifndef CLVULKAN_EXT_H
#define CLVULKAN_EXT_H

#include <CL/cl.h>

/* The order of the counts clGetLiveObjectCountsVK writes. */
enum {
    CLVK_LIVE_CONTEXTS,
    CLVK_LIVE_QUEUES,
    CLVK_LIVE_MEM_OBJECTS,
    CLVK_LIVE_PROGRAMS,
    CLVK_LIVE_KERNELS,
    CLVK_LIVE_EVENTS,
    CLVK_LIVE_KINDS
};

/* How many OpenCL objects of each kind exist in the process: those the
 * application holds and those only the runtime still holds (the event of a
 * command that is still running, a released queue whose commands have not
 * finished). The threads that complete commands are first given up to two
 * seconds to let go of the events of commands that have finished.
 *
 * Writes the first num_counts counts (at most CLVK_LIVE_KINDS) to counts,
 * and CLVK_LIVE_KINDS to num_counts_ret when it is not NULL.
 * CL_INVALID_PLATFORM for a platform other than clvulkan's, CL_INVALID_VALUE
 * when counts and num_counts_ret are both NULL or when num_counts is 0 and
 * counts is not NULL (or the other way round). */
typedef cl_int (*clGetLiveObjectCountsVK_fn)(cl_platform_id platform, cl_uint num_counts,
                                             cl_ulong *counts, cl_uint *num_counts_ret);

#endif
