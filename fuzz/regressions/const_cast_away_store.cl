// The replay driver's mutation: stores through pointers whose 'const' was
// cast away (explicitly, implicitly, through an integer, in a callee) to a
// kernel's 'const' buffer, which was bound read-only: naga rejected them.
void set(global float *p) { *p = 2.0f; }
kernel void explicit_cast(global const float *in) { global float *p = (global float *)in; *p = 1.0f; }
kernel void implicit(global const float *in) { global float *p = in; *p = 1.0f; }
kernel void through_integer(global const float *in) { global int *p = (global int *)(uintptr_t)in; *p = 1; }
kernel void in_callee(global const float *in) { set((global float *)in); }
