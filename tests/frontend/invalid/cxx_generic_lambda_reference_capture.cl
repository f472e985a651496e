// options: -cl-std=CLC++
// expect: 7:16: error: generic lambdas capturing by reference are not supported by clvulkan's C++ for OpenCL yet, which takes the language's C subset
// A generic lambda's instances are made where it is called, without the
// hidden parameters that carry captures by reference.
__kernel void k(__global int *out) {
    int total = 0;
    auto add = [&total](auto x) { total += x; };
    add(1);
    out[0] = total;
}
