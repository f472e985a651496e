// goto and labels, each kernel writing one int per work-item from its
// global id. The same file is compiled as C for the host by
// tests/c/goto_host.c (which defines `kernel`, `global` and
// `get_global_id`), and tests/goto.rs checks the device against it.

// A forward goto skipping code, a declaration with its initialiser among it.
kernel void forward_skip(global int *out) {
    int x = (int)get_global_id(0);
    int r = x;
    if (x % 3 == 0)
        goto skip;
    r = r * 7 + 1;
    int y = r + 2;
    r += y;
skip:
    out[x] = r;
}

// A backward goto forming a loop; the block's initialiser runs each time.
static int backward_loop(int x) {
    int i = 0, acc = 0;
again:
    {
        int step = i * x + 1;
        acc += step;
    }
    i++;
    if (i < x % 7 + 1)
        goto again;
    return acc;
}

kernel void backward(global int *out) {
    int x = (int)get_global_id(0);
    out[x] = backward_loop(x);
}

// Out of two loops at once.
static int nested_exit(int x) {
    int found = -1;
    for (int i = 0; i < 10; i++)
        for (int j = 0; j < 10; j++)
            if (i * j + i == x % 50) {
                found = i * 100 + j;
                goto done;
            }
    found = -2;
done:
    return found;
}

kernel void out_of_loops(global int *out) {
    int x = (int)get_global_id(0);
    out[x] = nested_exit(x);
}

// Into a for body (skipping the initialisation and the first test), a
// while body (whose test would fail) and a do body, from before them.
static int into_loops(int x) {
    int acc = 0, i = x % 5;
    if (x & 1)
        goto in_for;
    for (i = 0; i < 6; i++) {
        acc += 10;
    in_for:
        acc += i;
    }
    int n = 100 + x % 3;
    if (x & 2)
        goto in_while;
    n = x % 4;
    while (n < 3) {
        acc += 1000;
    in_while:
        acc += n * 7;
        n++;
    }
    int m = x % 6;
    if (x & 4)
        goto in_do;
    do {
        acc -= 3;
    in_do:
        acc += m;
    } while (--m > 0);
    return acc;
}

kernel void into_loop(global int *out) {
    int x = (int)get_global_id(0);
    out[x] = into_loops(x);
}

// Between switch cases, forward and backward, and out of the switch; a
// label before a case label.
static int between_cases(int x) {
    int r = 0, n = 0;
    switch (x % 6) {
    case 0:
        r += 1;
        goto three;
    case 1:
        r += 10;
    again:
        r += 100;
        if (n++ < 2)
            goto again;
        break;
    case 2:
        r += 1000;
        goto again;
    three:
    case 3:
        r += 10000;
        break;
    case 4:
        r += 3;
        goto after;
    default:
        r += 5;
    }
    r += 7;
after:
    return r + n * 1000000;
}

// Into the statements before a switch's first case label, which only a
// goto reaches (a value that would select them otherwise goes to default).
static int before_first_case(int x) {
    int r = 0, rounds = 0;
    switch (x % 4) {
    early:
        r += 100;
    case 1:
        r += 1;
        break;
    case 2:
        r += 20;
        if (rounds++ == 0)
            goto early;
        break;
    default:
        r += 3;
        if (x & 4)
            goto early;
    }
    return r;
}

// Back into a switch on a 64-bit value whose first case is negative, into
// a branch that never runs otherwise, and a loop in a case.
static int negative_first_case(int x) {
    int r = 0, rounds = 0;
    switch ((long)(x % 3) - 1) {
    case -1:
        r += 1;
    in_first:
        r += 2;
        break;
    case 0:
        r += 10;
        break;
    default:
        r += 100;
        goto back;
    }
    if (rounds++ < 1 && (x & 4))
        goto in_first;
    if (0) {
    back:
        r += 1000;
    }
    switch (x & 1) {
    case 1:
        r += 5;
        break;
    case 0:
        r += 50;
    again:
        r += 500;
        if (r < 5000)
            goto again;
    }
    return r;
}

kernel void switch_cases(global int *out) {
    int x = (int)get_global_id(0);
    out[x] = between_cases(x) + before_first_case(x) * 100000 + negative_first_case(x) * 7;
}

// A goto to the loop's continue point; and a backward goto inside a loop
// body whose `continue` and `break` must still reach that loop.
kernel void continue_point(global int *out) {
    int x = (int)get_global_id(0);
    int acc = 0;
    for (int i = 0; i < 8; i++) {
        if ((i + x) % 3 == 0)
            goto next;
        acc += i;
        if (acc > 10 + x % 4)
            break;
        acc *= 2;
    next:;
    }
    for (int i = 0; i < 6; i++) {
        int tries = 0;
    retry:
        tries++;
        if (i == 2 && (x & 1))
            continue;
        if (i == 4 && (x & 2))
            break;
        acc += i * tries;
        if (tries < x % 3 + 1)
            goto retry;
    }
    out[x] = acc;
}

// Irreducible flow: two loops entered at either head, and jumps into both
// branches of an if.
static int crossing(int x) {
    int a = x, steps = 0;
    if (x & 1)
        goto odd;
even:
    steps++;
    a = a / 2 + 3;
    if (steps > 20)
        goto out;
    if (a & 1)
        goto odd;
    goto even;
odd:
    steps++;
    a = (a * 3 + 1) % 1000;
    if (steps > 20)
        goto out;
    if (a % 4 == 0)
        goto even;
    goto odd;
out:
    return a * 100 + steps;
}

static int into_branches(int x) {
    int r = 0;
    if (x % 4 == 1)
        goto in_else;
    if (x % 4 == 2)
        goto in_then;
    if (x > 1000) {
    in_then:
        r += 1;
    } else {
        r += 2;
    in_else:
        r += 3;
    }
    return r;
}

kernel void irreducible(global int *out) {
    int x = (int)get_global_id(0);
    out[x] = crossing(x) * 10 + into_branches(x);
}
