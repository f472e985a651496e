// expect: 4:13: error: expected identifier or '('
// A function definition must name the function; clang looks for the name
// after the `(`, which it takes for a grouping parenthesis.
kernel void() {}
