// switch with shared labels, fall-through, default in the middle, and
// break/continue inside a loop: out[i] is computed on the host the same way.
__kernel void switch_fallthrough(__global int *out)
{
    int i = get_global_id(0);
    int acc = 0;
    for (int k = 0; k < 4; k++) {
        switch ((i + k) % 7) {
        case 0:
        case 1:
            acc += 1;
            /* fall through */
        case 2:
            acc += 10;
            break;
        default:
            acc += 100;
        case 5:
            acc += 1000;
            break;
        case 6:
            continue;
        }
        acc *= 2;
    }
    out[i] = acc;
}
