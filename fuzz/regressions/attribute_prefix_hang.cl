// A name that starts like the attribute keyword made decl_specs spin.
__attributes x;
