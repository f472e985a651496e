/* What the negative-path C tests share: one line per check, a count of
 * failures, the device, and a watchdog that turns a hang into a failure. */
#ifndef CHECK_H
#define CHECK_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clvulkan_ext.h"

static int failures;

/* Records one check: `got` must be `want`. */
static inline void expect(const char *what, cl_int got, cl_int want)
{
    printf("%s: %s (%d)\n", what, got == want ? "ok" : "WRONG", got);
    fflush(stdout);
    if (got != want)
        failures++;
}

/* Records a condition. */
static inline void expect_true(const char *what, int holds)
{
    expect(what, holds ? CL_SUCCESS : -1, CL_SUCCESS);
}

static void on_alarm(int signal)
{
    (void)signal;
    static const char message[] = "watchdog: the test hung\n";
    (void)!write(1, message, sizeof message - 1);
    _exit(2);
}

/* The platform and its first device; a call that hangs for `seconds`
 * ends the program as a failure. */
static inline void setup(cl_platform_id *platform, cl_device_id *device, unsigned seconds)
{
    signal(SIGALRM, on_alarm);
    alarm(seconds);
    if (clGetPlatformIDs(1, platform, NULL) != CL_SUCCESS ||
        clGetDeviceIDs(*platform, CL_DEVICE_TYPE_ALL, 1, device, NULL) != CL_SUCCESS) {
        printf("no platform or device\n");
        exit(1);
    }
}

/* A built program of `source` in `context`, or NULL. */
static inline cl_program build(cl_context context, cl_device_id device, const char *source)
{
    cl_int err;
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &err);
    if (err != CL_SUCCESS || clBuildProgram(program, 1, &device, NULL, NULL, NULL) != CL_SUCCESS) {
        printf("build failed\n");
        failures++;
        return NULL;
    }
    return program;
}

/* Ends the test: the summary line the Rust side looks for. */
static inline int finish(void)
{
    printf("%d failures\n", failures);
    return failures != 0;
}

#endif
