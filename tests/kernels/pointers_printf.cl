// %p prints the object a pointer points into and the byte offset there.

__kernel void print_pointers(__global float *a, __global float *b, int pick) {
    __global float *p = pick ? a : b;
    float x[4];
    float *q = x + 2;
    printf("P: a=%p a+3=%p chosen=%p b=%p\n", a, a + 3, p, b);
    printf("P: x=%p q=%p\n", x, q);
}
