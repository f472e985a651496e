// An interpreter-style kernel: an enum of operations, a switch with
// fall-through, grouped case labels and a default, and enum kernel
// arguments passed as int.
typedef enum {
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV = 8,
    OP_NEG,
    OP_ABS
} Op;

float apply(Op op, float a, float b)
{
    float r = 0.0f;
    switch (op) {
    case OP_ADD:
        r = a + b;
        break;
    case OP_SUB:
        b = -b;
        r = a + b;
        break;
    case OP_MUL:
        r = a * b;
        break;
    case OP_DIV:
        if (b == 0.0f) {
            r = 0.0f;
            break;
        }
        r = a / b;
        break;
    case OP_NEG:
        a = -a;
        /* fall through */
    case OP_ABS:
        r = op == OP_ABS ? fabs(a) : a;
        break;
    default:
        r = NAN;
    }
    return r;
}

__kernel void eval(__global const int *ops, __global const float *a, __global const float *b,
                   __global float *out)
{
    const int i = get_global_id(0);
    out[i] = apply((Op)ops[i], a[i], b[i]);
    switch (i & 3) {
    case 0:
    case 1:
        out[i] += 1.0f;
        break;
    case 2: {
        const float t = out[i];
        out[i] = t * t;
        break;
    }
    default:
        break;
    }
}
