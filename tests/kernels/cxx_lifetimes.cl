// options: -cl-std=CLC++
// Object lifetimes in C++ for OpenCL (issue 22): copy and move
// constructors, copy assignment operators and destructors, run where C++
// runs them. Each kernel writes the trace its objects leave: a
// construction or copy notes the object's id, a destruction its negation.
// The expected traces are what the same source gives as host C++17
// (g++ -std=c++17).

__global int trace[32];
__global int trace_n;
void note(int v) { trace[trace_n++] = v; }
void report(__global int *out, int n) {
  for (int i = 0; i < n; i++) out[i] = i < trace_n ? trace[i] : 0;
}

struct Tracer {
  int id;
  Tracer(int i) : id(i) { note(id); }
  Tracer(const Tracer &o) : id(o.id + 100) { note(id); }
  Tracer &operator=(const Tracer &o) { id = o.id + 1000; note(id); return *this; }
  ~Tracer() { note(-id); }
  int get() const { return id; }
};

Tracer make(int i) { return Tracer(i); }
int by_value(Tracer t) { return t.get(); }
int bump(Tracer t) { t.id += 1; return t.id; }
int via_return(int i) { Tracer held(i); return make(i + 1).get(); }

struct Pair { Tracer a; Tracer b; Pair() : a(1), b(2) {} };

// Copies, temporaries, by-value parameters, members.
kernel void copies(global int *out) {
  trace_n = 0;
  {
    Tracer t(7);
    Tracer u = t;                 // 107, the copy constructor
    out[20] = make(9).get();      // 9, then -9 at the statement's end
    out[21] = by_value(t);        // 107, destroyed (-107) as it returns
    out[22] = via_return(40);     // 40 41 -41 -40: the temporary first
    Pair p;                       // 1 2
  }                               // -2 -1 (p, members last first), -107, -7
  report(out, 20);
}

// A named return value is the object returned where every 'return'
// returns it, as clang makes it; another is copied.
Tracer named(int i) { Tracer t(i); t.id += 1; return t; }
Tracer either(int i) {
  Tracer a(i);
  Tracer b(i + 1);
  if (i > 0) return a;
  return b;
}

kernel void returns(global int *out) {
  trace_n = 0;
  out[20] = named(3).get();         // 3, then -4 at the statement's end
  out[21] = either(5).get();        // 5 6, 105 (a's copy), -6 -5, -105
  report(out, 20);
}

// Implicit copies and assignments of a class whose member has its own,
// a reference that keeps a temporary alive, arrays and bases.
struct Holder { int x; Tracer t; Holder(int x, int i) : x(x), t(i) {} };
struct Base { int b; Base(int b) : b(b) {} ~Base() { note(-500 - b); } };
struct Derived : Base { Tracer t; Derived(int i) : Base(i), t(i) {} };

kernel void members(global int *out) {
  trace_n = 0;
  {
    Holder h(5, 3);                 // 3
    Holder g = h;                   // 103: the member's copy constructor
    g = h;                          // 1003: the member's operator=
    const Tracer &r = Tracer(4);    // 4, destroyed with r
    out[20] = bump(Tracer(1));      // 1, then -2: the callee changed it
    out[21] = r.get() + g.x;        // 4 + 5
    Tracer arr[2] = {Tracer(6), Tracer(8)};  // 6 8
    Derived d(9);                   // 9
  } // -9 (d's member), -509 (d's base), -8 -6 (arr), -4 (r), -1003, -3
  report(out, 20);
}

// Loop variables and structured bindings are copies too.
struct Plain { int a; int b; ~Plain() { note(-1000 - a - b); } };

kernel void loops(global int *out) {
  trace_n = 0;
  {
    Tracer arr[2] = {Tracer(1), Tracer(2)};  // 1 2
    int s = 0;
    for (Tracer t : arr) s += t.id;          // 101 -101 102 -102
    out[20] = s;
    Plain p = {3, 4};
    auto [x, y] = p;                         // a copy, destroyed first
    out[21] = x * 10 + y;
  } // -1007 (the bindings' copy), -1007 (p), -2 -1
  report(out, 20);
}

// A move constructor, through casts to 'T &&' written by hand.
struct Moved {
  int id;
  Moved(int i) : id(i) {}
  Moved(Moved &&o) : id(o.id + 1) { o.id = 0; }
};
Moved pass(Moved m) { return static_cast<Moved &&>(m); }

kernel void moves(global int *out) {
  Moved a(5);
  Moved b = static_cast<Moved &&>(a);      // a emptied, b 6
  out[0] = a.id;
  out[1] = b.id;
  out[2] = pass(static_cast<Moved &&>(b)).id;  // into m (7), out of it (8)
  out[3] = b.id;
}
