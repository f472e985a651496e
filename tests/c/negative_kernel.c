/* Programs and kernels: released handles (a program kept by its kernel
 * stays valid), arguments of another context or of impossible sizes,
 * buffers released after being set as arguments (their destructors run at
 * once unless a command still uses them), and private memory: reported,
 * and refused at enqueue past what the device holds. */
#include "check.h"

static int destroyed;

static void CL_CALLBACK count_destruction(cl_mem mem, void *user_data)
{
    (void)mem;
    (void)user_data;
    destroyed++;
}

static const char *SOURCE = "__kernel void fill(__global int *p, int v) { p[get_global_id(0)] = v; }\n"
                            "__kernel void scratch(__global int *p, __local int *l) {\n"
                            "    l[get_local_id(0)] = 1; p[get_global_id(0)] = l[0]; }\n";

/* A kernel with a private array of `count` ints, indexed at run time. */
static cl_kernel private_array(cl_context ctx, cl_device_id device, size_t count, cl_program *program)
{
    char source[512];
    snprintf(source, sizeof source,
             "__kernel void k(__global int *o, int s) {\n"
             "    int a[%zu];\n"
             "    for (int i = 0; i < 4; i++) a[(i * s) %% %zu] = i * s;\n"
             "    o[get_global_id(0)] = a[s %% %zu];\n"
             "}\n",
             count, count, count);
    *program = build(ctx, device, source);
    cl_int err;
    cl_kernel kernel = *program ? clCreateKernel(*program, "k", &err) : NULL;
    return kernel;
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device;
    cl_int err;
    setup(&platform, &device, 240);
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_context other = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    cl_command_queue queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 256 * sizeof(cl_int), NULL, &err);
    size_t global = 64;
    cl_int out[64];

    /* Released programs. */
    cl_program gone = build(ctx, device, SOURCE);
    expect("clReleaseProgram", clReleaseProgram(gone), CL_SUCCESS);
    expect("clBuildProgram(released)", clBuildProgram(gone, 0, NULL, NULL, NULL, NULL), CL_INVALID_PROGRAM);
    expect("clCompileProgram(released)", clCompileProgram(gone, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
           CL_INVALID_PROGRAM);
    clCreateKernel(gone, "fill", &err);
    expect("clCreateKernel(released program)", err, CL_INVALID_PROGRAM);
    cl_uint kernels = 0;
    expect("clCreateKernelsInProgram(released)", clCreateKernelsInProgram(gone, 0, NULL, &kernels),
           CL_INVALID_PROGRAM);
    size_t size = 0;
    expect("clGetProgramInfo(released)", clGetProgramInfo(gone, CL_PROGRAM_SOURCE, 0, NULL, &size),
           CL_INVALID_PROGRAM);
    expect("clGetProgramBuildInfo(released)",
           clGetProgramBuildInfo(gone, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size), CL_INVALID_PROGRAM);
    expect("clRetainProgram(released)", clRetainProgram(gone), CL_INVALID_PROGRAM);

    /* A program its kernel keeps stays valid after its release. */
    cl_program program = build(ctx, device, SOURCE);
    cl_kernel fill = clCreateKernel(program, "fill", &err);
    expect("clReleaseProgram(kept by a kernel)", clReleaseProgram(program), CL_SUCCESS);
    cl_program of_kernel = NULL;
    clGetKernelInfo(fill, CL_KERNEL_PROGRAM, sizeof of_kernel, &of_kernel, NULL);
    expect("clGetProgramInfo(program kept by its kernel)",
           clGetProgramInfo(of_kernel, CL_PROGRAM_SOURCE, 0, NULL, &size), CL_SUCCESS);
    cl_kernel scratch = clCreateKernel(of_kernel, "scratch", &err);
    expect("clCreateKernel(program kept by a kernel)", err, CL_SUCCESS);

    /* Arguments: another context's buffer, impossible sizes. */
    cl_mem foreign = clCreateBuffer(other, CL_MEM_READ_WRITE, 64, NULL, &err);
    expect("clSetKernelArg(buffer of another context)", clSetKernelArg(fill, 0, sizeof foreign, &foreign),
           CL_INVALID_MEM_OBJECT);
    cl_int v = 7;
    expect("clSetKernelArg(int, SIZE_MAX)", clSetKernelArg(fill, 1, SIZE_MAX, &v), CL_INVALID_ARG_SIZE);
    expect("clSetKernelArg(index past the end)", clSetKernelArg(fill, 0xffffffffu, sizeof v, &v),
           CL_INVALID_ARG_INDEX);
    expect("clSetKernelArg(__local, SIZE_MAX)", clSetKernelArg(scratch, 1, SIZE_MAX, NULL), CL_SUCCESS);
    clSetKernelArg(scratch, 0, sizeof buf, &buf);
    size_t local = 64;
    expect("clEnqueueNDRangeKernel(__local of SIZE_MAX bytes)",
           clEnqueueNDRangeKernel(queue, scratch, 1, NULL, &global, &local, 0, NULL, NULL), CL_OUT_OF_RESOURCES);
    cl_ulong local_size = 0;
    expect("CL_KERNEL_LOCAL_MEM_SIZE(__local of SIZE_MAX bytes)",
           clGetKernelWorkGroupInfo(scratch, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_size, &local_size,
                                    NULL),
           CL_SUCCESS);
    expect_true("saturates instead of wrapping", local_size >= (cl_ulong)SIZE_MAX);
    clReleaseKernel(scratch);

    /* A buffer released after being set as an argument is destroyed at
     * once (the CTS's retain_mem_object_set_kernel_arg); the kernel then
     * lacks that argument. */
    cl_mem loose = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), NULL, &err);
    clSetMemObjectDestructorCallback(loose, count_destruction, NULL);
    expect("clSetKernelArg(buffer)", clSetKernelArg(fill, 0, sizeof loose, &loose), CL_SUCCESS);
    expect("clSetKernelArg(int)", clSetKernelArg(fill, 1, sizeof v, &v), CL_SUCCESS);
    expect("clReleaseMemObject(set as an argument)", clReleaseMemObject(loose), CL_SUCCESS);
    expect_true("its destructor ran", destroyed == 1);
    expect("clEnqueueNDRangeKernel(argument destroyed)",
           clEnqueueNDRangeKernel(queue, fill, 1, NULL, &global, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);

    /* ...but an enqueued command keeps its buffers until it is done. */
    cl_event gate = clCreateUserEvent(ctx, &err);
    cl_mem held = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), NULL, &err);
    clSetMemObjectDestructorCallback(held, count_destruction, NULL);
    clSetKernelArg(fill, 0, sizeof held, &held);
    expect("clEnqueueNDRangeKernel(behind a user event)",
           clEnqueueNDRangeKernel(queue, fill, 1, NULL, &global, NULL, 1, &gate, NULL), CL_SUCCESS);
    expect("clEnqueueCopyBuffer(behind the kernel)",
           clEnqueueCopyBuffer(queue, held, buf, 0, 0, sizeof out, 0, NULL, NULL), CL_SUCCESS);
    clReleaseMemObject(held);
    expect_true("a command still uses it", destroyed == 1);
    clSetUserEventStatus(gate, CL_COMPLETE);
    clFinish(queue);
    clReleaseEvent(gate);
    expect_true("destroyed once the commands were done", destroyed == 2);
    clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    expect_true("the kernel wrote it", out[0] == 7 && out[63] == 7);

    /* Released kernels. */
    clSetKernelArg(fill, 0, sizeof buf, &buf);
    expect("clReleaseKernel", clReleaseKernel(fill), CL_SUCCESS);
    expect("clSetKernelArg(released kernel)", clSetKernelArg(fill, 1, sizeof v, &v), CL_INVALID_KERNEL);
    expect("clGetKernelInfo(released kernel)", clGetKernelInfo(fill, CL_KERNEL_NUM_ARGS, 0, NULL, &size),
           CL_INVALID_KERNEL);
    expect("clGetKernelWorkGroupInfo(released kernel)",
           clGetKernelWorkGroupInfo(fill, device, CL_KERNEL_WORK_GROUP_SIZE, 0, NULL, &size), CL_INVALID_KERNEL);
    clCloneKernel(fill, &err);
    expect("clCloneKernel(released kernel)", err, CL_INVALID_KERNEL);
    expect("clEnqueueNDRangeKernel(released kernel)",
           clEnqueueNDRangeKernel(queue, fill, 1, NULL, &global, NULL, 0, NULL, NULL), CL_INVALID_KERNEL);
    expect("clEnqueueTask(released kernel)", clEnqueueTask(queue, fill, 0, NULL, NULL), CL_INVALID_KERNEL);
    expect("clRetainKernel(released kernel)", clRetainKernel(fill), CL_INVALID_KERNEL);
    expect("clGetProgramInfo(program gone with its kernels)",
           clGetProgramInfo(of_kernel, CL_PROGRAM_SOURCE, 0, NULL, &size), CL_INVALID_PROGRAM);

    /* Program sources and binaries of impossible lengths. */
    const char *text = "kernel void k() {}";
    size_t endless = SIZE_MAX;
    clCreateProgramWithSource(ctx, 1, &text, &endless, &err);
    expect("clCreateProgramWithSource(length SIZE_MAX)", err, CL_INVALID_VALUE);
    const unsigned char *binary = (const unsigned char *)text;
    cl_int status = 0;
    clCreateProgramWithBinary(ctx, 1, &device, &endless, &binary, &status, &err);
    expect("clCreateProgramWithBinary(length SIZE_MAX)", err, CL_INVALID_VALUE);

    /* Private memory is reported, and a kernel the device cannot hold is
     * refused at enqueue, without a crash or a stall. */
    cl_program small_program, big_program, huge_program;
    cl_kernel small = private_array(ctx, device, 64, &small_program);
    cl_ulong private_size = 0;
    clGetKernelWorkGroupInfo(small, device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof private_size, &private_size, NULL);
    expect_true("CL_KERNEL_PRIVATE_MEM_SIZE of int[64]", private_size >= 256 && private_size < 4096);
    cl_int s = 3;
    clSetKernelArg(small, 0, sizeof buf, &buf);
    clSetKernelArg(small, 1, sizeof s, &s);
    expect("clEnqueueNDRangeKernel(int[64])",
           clEnqueueNDRangeKernel(queue, small, 1, NULL, &global, NULL, 0, NULL, NULL), CL_SUCCESS);
    clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL);
    expect_true("it ran", out[0] == 3 && out[63] == 3);
    cl_kernel big = private_array(ctx, device, 64 * 1024, &big_program);
    clGetKernelWorkGroupInfo(big, device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof private_size, &private_size, NULL);
    expect_true("CL_KERNEL_PRIVATE_MEM_SIZE of int[64K]", private_size >= 256 * 1024);
    clSetKernelArg(big, 0, sizeof buf, &buf);
    clSetKernelArg(big, 1, sizeof s, &s);
    cl_device_type type = 0;
    clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    if (type == CL_DEVICE_TYPE_CPU) {
        expect("clEnqueueNDRangeKernel(256 KiB of private memory on a CPU)",
               clEnqueueNDRangeKernel(queue, big, 1, NULL, &global, NULL, 0, NULL, NULL), CL_OUT_OF_RESOURCES);
    }
    cl_kernel huge = private_array(ctx, device, (size_t)1 << 28, &huge_program);
    clGetKernelWorkGroupInfo(huge, device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof private_size, &private_size, NULL);
    expect_true("CL_KERNEL_PRIVATE_MEM_SIZE of int[256M]", private_size >= (cl_ulong)1 << 30);
    clSetKernelArg(huge, 0, sizeof buf, &buf);
    clSetKernelArg(huge, 1, sizeof s, &s);
    expect("clEnqueueNDRangeKernel(1 GiB of private memory)",
           clEnqueueNDRangeKernel(queue, huge, 1, NULL, &global, NULL, 0, NULL, NULL), CL_OUT_OF_RESOURCES);
    clReleaseKernel(small);
    clReleaseKernel(big);
    clReleaseKernel(huge);
    clReleaseProgram(small_program);
    clReleaseProgram(big_program);
    clReleaseProgram(huge_program);

    clReleaseMemObject(foreign);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(queue);
    clReleaseContext(other);
    clReleaseContext(ctx);
    return finish();
}
