/* A plain OpenCL 1.2 host program: builds vecadd and saxpy from source, runs
 * them on 1M elements through whatever ICD the loader gives it, and checks
 * every element. Exit status 0 only if every result is right.
 *
 *   cc vecadd_saxpy.c -lOpenCL -o vecadd_saxpy && ./vecadd_saxpy [N]
 */
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                          \
    do {                                                                     \
        cl_int err_ = (call);                                                \
        if (err_ != CL_SUCCESS) {                                            \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__,    \
                    #call, err_);                                            \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

static const char *source =
    "__kernel void vecadd(__global const float *a, __global const float *b,\n"
    "                     __global float *c, uint n)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        c[i] = a[i] + b[i];\n"
    "}\n"
    "\n"
    "kernel void saxpy(float alpha, global const float *x, global float *y)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    y[i] = alpha * x[i] + y[i];\n"
    "}\n";

int main(int argc, char **argv)
{
    cl_uint n = argc > 1 ? (cl_uint)strtoul(argv[1], NULL, 0) : 1u << 20;
    cl_platform_id platform;
    cl_device_id device;
    char name[256], platform_name[256];
    cl_int err;

    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof platform_name,
                            platform_name, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, NULL));
    CHECK(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, NULL));
    printf("platform: %s\ndevice: %s\n", platform_name, name);

    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    cl_program program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    CHECK(err);
    err = clBuildProgram(program, 1, &device, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[16384];
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log,
                              log, NULL);
        fprintf(stderr, "build failed (%d):\n%s\n", err, log);
        return 1;
    }
    cl_kernel vecadd = clCreateKernel(program, "vecadd", &err);
    CHECK(err);
    cl_kernel saxpy = clCreateKernel(program, "saxpy", &err);
    CHECK(err);

    size_t bytes = (size_t)n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    for (cl_uint i = 0; i < n; i++) {
        a[i] = (float)i * 0.5f;
        b[i] = (float)(n - i) * 0.25f;
    }
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
    CHECK(err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY, bytes, NULL, &err);
    CHECK(err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK(err);
    cl_event written;
    CHECK(clEnqueueWriteBuffer(queue, db, CL_FALSE, 0, bytes, b, 0, NULL, &written));

    CHECK(clSetKernelArg(vecadd, 0, sizeof da, &da));
    CHECK(clSetKernelArg(vecadd, 1, sizeof db, &db));
    CHECK(clSetKernelArg(vecadd, 2, sizeof dc, &dc));
    CHECK(clSetKernelArg(vecadd, 3, sizeof n, &n));
    size_t global = n;
    CHECK(clEnqueueNDRangeKernel(queue, vecadd, 1, NULL, &global, NULL, 1, &written, NULL));
    CHECK(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, bytes, c, 0, NULL, NULL));
    cl_uint good = 0;
    for (cl_uint i = 0; i < n; i++)
        good += c[i] == a[i] + b[i];
    printf("vecadd: %u/%u correct\n", good, n);
    int ok = good == n;

    /* saxpy in place on c: c = 3 * a + c */
    float alpha = 3.0f;
    CHECK(clSetKernelArg(saxpy, 0, sizeof alpha, &alpha));
    CHECK(clSetKernelArg(saxpy, 1, sizeof da, &da));
    CHECK(clSetKernelArg(saxpy, 2, sizeof dc, &dc));
    cl_event done;
    CHECK(clEnqueueNDRangeKernel(queue, saxpy, 1, NULL, &global, NULL, 0, NULL, &done));
    float *y = malloc(bytes);
    CHECK(clEnqueueReadBuffer(queue, dc, CL_FALSE, 0, bytes, y, 1, &done, NULL));
    CHECK(clFinish(queue));
    good = 0;
    for (cl_uint i = 0; i < n; i++) {
        /* OpenCL C may contract a*x+y into one fma (FP_CONTRACT is on by
         * default), so allow the last bit or two. */
        float expected = alpha * a[i] + c[i];
        good += fabsf(y[i] - expected) <= 1e-6f * fabsf(expected);
    }
    printf("saxpy: %u/%u correct\n", good, n);
    ok &= good == n;

    clReleaseEvent(written);
    clReleaseEvent(done);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseKernel(vecadd);
    clReleaseKernel(saxpy);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(a);
    free(b);
    free(c);
    free(y);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
