// The smallest kernel: what an enqueue-to-finish round trip costs.
__kernel void empty(void) {}
