// char arrays initialised by string literals (C99 6.7.8p14): sized by the
// string and its NUL, exactly the string without its NUL, padded with
// zeros, braced, rows of a table; printed with %s, and literals held in
// pointer variables.
__constant char greeting[] = "hello";
__constant uchar bytes3[3] = "abc";
__constant char table[3][8] = {"red", "green", { "blue" }};

__kernel void string_initializers(__global int *out, int pick)
{
    char name[16] = "work-item";
    char exact[2] = "ok";
    __constant char kernel_scope[] = { "k" };
    __constant char *color = pick ? "on" : "off";
    int i = get_global_id(0);
    out[i] = sizeof(greeting) + sizeof(bytes3) + sizeof(name) + sizeof(exact)
           + name[15] + greeting[i % 6] + table[i % 3][0] + kernel_scope[0];
    printf("%s %s %s %s\n", name, table[pick % 3], color, greeting);
}
