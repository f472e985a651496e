//! The API trace (`CLVULKAN_LOG=api`, see [`crate::logging`]): one line per
//! entry point call, after it returns, with its arguments decoded and its
//! result by name, like
//!
//! ```text
//! clvulkan: api: clCreateBuffer(context=cl_context#1, flags=CL_MEM_READ_ONLY|CL_MEM_COPY_HOST_PTR, size=4096, host_ptr=0x55d0c0a2b2a0, errcode_ret=0x7ffd5d6e1a3c) = cl_mem#1, CL_SUCCESS
//! ```
//!
//! Every entry point describes its arguments once, with [`entry!`], and
//! hands the description to the frame in [`crate::api::call`], which prints
//! it only when the trace is on: otherwise the description is never built.
//! Handles are named by kind and order of first sight (`cl_mem#3`); an
//! object an entry point creates always gets a new number, so a name never
//! stands for two objects even when an address is reused. Values come from
//! the tables of [`crate::api::trace_names`].

use std::collections::HashMap;
use std::ffi::{c_char, c_void, CStr};
use std::fmt::Write as _;
use std::sync::{LazyLock, Mutex, MutexGuard, PoisonError};

use opencl_sys::{cl_int, cl_uint};

use crate::api::trace_names;

/// Describes an entry point call for the trace:
/// `entry!("clCreateBuffer" -> Mem, context: context, flags: mem_flags, size: size)`.
/// Each argument is named by the parameter and decoded by the [`Arg`]
/// constructor after the colon (given further arguments in parentheses,
/// such as a list's length); `-> Kind` names what an entry point that
/// creates an object returns.
macro_rules! entry {
    ($name:literal $(-> $returns:ident)? $(, $arg:ident: $how:ident $(($($extra:expr),*))?)* $(,)?) => {
        $crate::api::trace::Entry::new(
            $name,
            $crate::api::trace::returns!($($returns)?),
            move || ::std::vec![$(
                (::std::stringify!($arg), $crate::api::trace::Arg::$how($arg $($(, $extra)*)?)),
            )*],
        )
    };
}
pub(crate) use entry;

/// The `-> Kind` of [`entry!`], if any.
macro_rules! returns {
    () => {
        None
    };
    ($kind:ident) => {
        Some($crate::api::trace::Kind::$kind)
    };
}
pub(crate) use returns;

/// The kinds of handle, for their names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Platform,
    Device,
    Context,
    Queue,
    Mem,
    Program,
    Kernel,
    Event,
    Sampler,
}

impl Kind {
    fn type_name(self) -> &'static str {
        match self {
            Kind::Platform => "cl_platform_id",
            Kind::Device => "cl_device_id",
            Kind::Context => "cl_context",
            Kind::Queue => "cl_command_queue",
            Kind::Mem => "cl_mem",
            Kind::Program => "cl_program",
            Kind::Kernel => "cl_kernel",
            Kind::Event => "cl_event",
            Kind::Sampler => "cl_sampler",
        }
    }
}

/// The most elements of a list, and characters of a string, printed.
const MAX_ELEMENTS: usize = 16;
const MAX_TEXT: usize = 96;

/// One argument, as the trace decodes it.
pub(crate) enum Arg {
    Handle(Kind, usize),
    /// `count` handles the application passes.
    Handles(Kind, *const *mut c_void, usize),
    /// Where the entry point stores the handle of an object it creates.
    NewHandle(Kind, *mut *mut c_void),
    /// Where the entry point stores `count` handles of existing objects.
    OutHandles(Kind, *mut *mut c_void, usize),
    /// Where the entry point stores a count.
    OutCount(*mut cl_uint),
    Flags(u64, &'static [(u64, &'static str)]),
    Info(u32),
    Bool(cl_uint),
    Size(usize),
    /// `count` sizes (work sizes, origins, regions).
    Sizes(*const usize, usize),
    Unsigned(u64),
    Signed(i64),
    Pointer(usize),
    /// A callback: only whether there is one.
    Callback(bool),
    Text(*const c_char),
}

/// An argument of an entry point not built yet, printed as a number or an
/// address (see `api::not_implemented`).
pub(crate) trait Raw {
    fn raw(self) -> Arg;
}

impl<T: ?Sized> Raw for *const T {
    fn raw(self) -> Arg {
        Arg::Pointer(self.address())
    }
}

impl<T: ?Sized> Raw for *mut T {
    fn raw(self) -> Arg {
        Arg::Pointer(self.address())
    }
}

impl<F> Raw for Option<F> {
    fn raw(self) -> Arg {
        Arg::callback(self)
    }
}

impl Raw for u32 {
    fn raw(self) -> Arg {
        Arg::Unsigned(self.into())
    }
}

impl Raw for u64 {
    fn raw(self) -> Arg {
        Arg::Unsigned(self)
    }
}

impl Raw for i32 {
    fn raw(self) -> Arg {
        Arg::Signed(self.into())
    }
}

impl Raw for usize {
    fn raw(self) -> Arg {
        Arg::Size(self)
    }
}

/// An address, for the arguments printed as one.
pub(crate) trait Address {
    fn address(self) -> usize;
}

impl<T: ?Sized> Address for *const T {
    fn address(self) -> usize {
        self.cast::<()>() as usize
    }
}

impl<T: ?Sized> Address for *mut T {
    fn address(self) -> usize {
        self.cast::<()>() as usize
    }
}

/// The constructors [`entry!`] names, one per way of decoding.
impl Arg {
    pub(crate) fn platform(handle: *mut c_void) -> Arg {
        Arg::Handle(Kind::Platform, handle as usize)
    }
    pub(crate) fn device(handle: *mut c_void) -> Arg {
        Arg::Handle(Kind::Device, handle as usize)
    }
    pub(crate) fn context(handle: *mut c_void) -> Arg {
        Arg::Handle(Kind::Context, handle as usize)
    }
    pub(crate) fn queue(handle: *mut c_void) -> Arg {
        Arg::Handle(Kind::Queue, handle as usize)
    }
    pub(crate) fn mem(handle: *mut c_void) -> Arg {
        Arg::Handle(Kind::Mem, handle as usize)
    }
    pub(crate) fn program(handle: *mut c_void) -> Arg {
        Arg::Handle(Kind::Program, handle as usize)
    }
    pub(crate) fn kernel(handle: *mut c_void) -> Arg {
        Arg::Handle(Kind::Kernel, handle as usize)
    }
    pub(crate) fn event(handle: *mut c_void) -> Arg {
        Arg::Handle(Kind::Event, handle as usize)
    }
    pub(crate) fn sampler(handle: *mut c_void) -> Arg {
        Arg::Handle(Kind::Sampler, handle as usize)
    }
    pub(crate) fn devices(list: *const *mut c_void, count: cl_uint) -> Arg {
        Arg::Handles(Kind::Device, list, count as usize)
    }
    pub(crate) fn events(list: *const *mut c_void, count: cl_uint) -> Arg {
        Arg::Handles(Kind::Event, list, count as usize)
    }
    pub(crate) fn mems(list: *const *mut c_void, count: cl_uint) -> Arg {
        Arg::Handles(Kind::Mem, list, count as usize)
    }
    pub(crate) fn programs(list: *const *mut c_void, count: cl_uint) -> Arg {
        Arg::Handles(Kind::Program, list, count as usize)
    }
    pub(crate) fn new_event(out: *mut *mut c_void) -> Arg {
        Arg::NewHandle(Kind::Event, out)
    }
    pub(crate) fn out_platforms(out: *mut *mut c_void, count: cl_uint) -> Arg {
        Arg::OutHandles(Kind::Platform, out, count as usize)
    }
    pub(crate) fn out_devices(out: *mut *mut c_void, count: cl_uint) -> Arg {
        Arg::OutHandles(Kind::Device, out, count as usize)
    }
    pub(crate) fn out_kernels(out: *mut *mut c_void, count: cl_uint) -> Arg {
        Arg::OutHandles(Kind::Kernel, out, count as usize)
    }
    pub(crate) fn out_count(out: *mut cl_uint) -> Arg {
        Arg::OutCount(out)
    }
    pub(crate) fn mem_flags(flags: u64) -> Arg {
        Arg::Flags(flags, trace_names::MEM_FLAGS)
    }
    pub(crate) fn map_flags(flags: u64) -> Arg {
        Arg::Flags(flags, trace_names::MAP_FLAGS)
    }
    pub(crate) fn device_type(flags: u64) -> Arg {
        Arg::Flags(flags, trace_names::DEVICE_TYPES)
    }
    pub(crate) fn queue_properties(flags: u64) -> Arg {
        Arg::Flags(flags, trace_names::QUEUE_PROPERTIES)
    }
    pub(crate) fn migration_flags(flags: u64) -> Arg {
        Arg::Flags(flags, trace_names::MIGRATION_FLAGS)
    }
    pub(crate) fn info(name: cl_uint) -> Arg {
        Arg::Info(name)
    }
    pub(crate) fn boolean(value: cl_uint) -> Arg {
        Arg::Bool(value)
    }
    pub(crate) fn size(value: usize) -> Arg {
        Arg::Size(value)
    }
    pub(crate) fn sizes(list: *const usize, count: cl_uint) -> Arg {
        Arg::Sizes(list, count as usize)
    }
    pub(crate) fn unsigned(value: impl Into<u64>) -> Arg {
        Arg::Unsigned(value.into())
    }
    pub(crate) fn signed(value: impl Into<i64>) -> Arg {
        Arg::Signed(value.into())
    }
    pub(crate) fn pointer(value: impl Address) -> Arg {
        Arg::Pointer(value.address())
    }
    pub(crate) fn text(value: *const c_char) -> Arg {
        Arg::Text(value)
    }
    pub(crate) fn raw(value: impl Raw) -> Arg {
        value.raw()
    }
    /// A callback: only whether there is one.
    pub(crate) fn callback<F>(value: Option<F>) -> Arg {
        Arg::Callback(value.is_some())
    }
}

/// An entry point call's description: its name, what it returns, and its
/// arguments, built only when the trace is on.
pub(crate) struct Entry<F> {
    name: &'static str,
    returns: Option<Kind>,
    args: F,
}

impl<F: FnOnce() -> Vec<(&'static str, Arg)>> Entry<F> {
    pub(crate) fn new(name: &'static str, returns: Option<Kind>, args: F) -> Entry<F> {
        Entry {
            name,
            returns,
            args,
        }
    }

    /// Writes the line of a call that returned `status`.
    pub(crate) fn status(self, status: cl_int) {
        let mut line = self.call(status == opencl_sys::CL_SUCCESS);
        let _ = write!(line, " = {}", result_name(status));
        finish(line);
    }

    /// Writes the line of a call that returned `object` (a handle of
    /// [`Entry::returns`]'s kind, or a pointer) with `status`.
    pub(crate) fn created(self, object: *mut c_void, status: cl_int) {
        let returns = self.returns;
        let mut line = self.call(status == opencl_sys::CL_SUCCESS);
        let shown = match returns {
            Some(kind) if !object.is_null() => names().fresh(kind, object as usize),
            _ => pointer(object as usize),
        };
        let _ = write!(line, " = {shown}, {}", result_name(status));
        finish(line);
    }

    /// Writes the line of a call that returns nothing.
    pub(crate) fn nothing(self) {
        finish(self.call(true));
    }

    /// Writes the line of a call that returns a pointer and no status.
    pub(crate) fn pointer(self, returned: *mut c_void) {
        let mut line = self.call(!returned.is_null());
        let _ = write!(line, " = {}", pointer(returned as usize));
        finish(line);
    }

    /// `name(arg=value, ...)`; outputs are read only after a successful
    /// call, the only time they hold anything.
    fn call(self, succeeded: bool) -> String {
        let mut line = format!("clvulkan: api: {}(", self.name);
        for (index, (name, arg)) in (self.args)().into_iter().enumerate() {
            if index > 0 {
                line.push_str(", ");
            }
            line.push_str(name);
            line.push('=');
            render(&arg, succeeded, &mut line);
        }
        line.push(')');
        line
    }
}

fn finish(mut line: String) {
    line.push('\n');
    crate::logging::write_line(&line);
}

/// `CL_SUCCESS`, `CL_INVALID_VALUE`, or the number of an unknown code.
pub(crate) fn result_name(status: cl_int) -> String {
    lookup(trace_names::RESULTS, status).map_or_else(|| status.to_string(), str::to_string)
}

fn lookup<T: PartialEq + Copy>(table: &[(T, &'static str)], value: T) -> Option<&'static str> {
    table
        .iter()
        .find(|(known, _)| *known == value)
        .map(|&(_, name)| name)
}

fn pointer(address: usize) -> String {
    if address == 0 {
        "NULL".to_string()
    } else {
        format!("{address:#x}")
    }
}

/// `A|B|0x40` for `flags`: names of whole values first (`CL_DEVICE_TYPE_ALL`),
/// then of bits, then the bits no name covers.
pub(crate) fn flags_name(flags: u64, table: &[(u64, &'static str)]) -> String {
    if flags == 0 {
        return "0".to_string();
    }
    if let Some(name) = lookup(table, flags) {
        return name.to_string();
    }
    let mut parts = Vec::new();
    let mut rest = flags;
    for &(bit, name) in table {
        if bit.is_power_of_two() && flags & bit != 0 {
            parts.push(name.to_string());
            rest &= !bit;
        }
    }
    if rest != 0 {
        parts.push(format!("{rest:#x}"));
    }
    parts.join("|")
}

fn render(arg: &Arg, succeeded: bool, out: &mut String) {
    match *arg {
        Arg::Handle(kind, handle) => out.push_str(&names().name(kind, handle)),
        Arg::Handles(kind, list, count) => {
            // SAFETY: per the entry point's contract, a non-NULL list holds
            // `count` handles (the entry point itself read them).
            let handles = unsafe { read_list(list, count) };
            list_of(
                out,
                list as usize,
                count,
                handles.map(|h| names().name(kind, h as usize)),
            )
        }
        Arg::NewHandle(kind, out_pointer) => {
            if succeeded && !out_pointer.is_null() {
                // SAFETY: the call succeeded, so it stored a handle there.
                let handle = unsafe { out_pointer.read_unaligned() };
                let _ = write!(out, "&{}", names().fresh(kind, handle as usize));
            } else {
                out.push_str(&pointer(out_pointer as usize));
            }
        }
        Arg::OutHandles(kind, list, count) => {
            if succeeded {
                // SAFETY: the call succeeded, so it stored `count` handles
                // into the application's array of that many.
                let handles = unsafe { read_list(list.cast_const(), count) };
                list_of(
                    out,
                    list as usize,
                    count,
                    handles.map(|h| names().name(kind, h as usize)),
                )
            } else {
                out.push_str(&pointer(list as usize));
            }
        }
        Arg::OutCount(count) => {
            if succeeded && !count.is_null() {
                // SAFETY: the call succeeded, so it stored a count there.
                let _ = write!(out, "&{}", unsafe { count.read_unaligned() });
            } else {
                out.push_str(&pointer(count as usize));
            }
        }
        Arg::Flags(flags, table) => out.push_str(&flags_name(flags, table)),
        Arg::Info(name) => match lookup(trace_names::INFO_QUERIES, name) {
            Some(known) => out.push_str(known),
            None => {
                let _ = write!(out, "{name:#x}");
            }
        },
        Arg::Bool(value) => out.push_str(match value {
            0 => "CL_FALSE",
            1 => "CL_TRUE",
            _ => "CL_TRUE (not 1)",
        }),
        Arg::Size(value) => {
            let _ = write!(out, "{value}");
        }
        Arg::Sizes(list, count) => {
            // SAFETY: per the entry point's contract, a non-NULL array holds
            // `count` sizes.
            let sizes = unsafe { read_list(list, count) };
            list_of(out, list as usize, count, sizes.map(|s| s.to_string()))
        }
        Arg::Unsigned(value) => {
            let _ = write!(out, "{value}");
        }
        Arg::Signed(value) => {
            let _ = write!(out, "{value}");
        }
        Arg::Pointer(address) => out.push_str(&pointer(address)),
        Arg::Callback(set) => out.push_str(if set { "set" } else { "NULL" }),
        Arg::Text(text) => {
            if text.is_null() {
                out.push_str("NULL");
            } else {
                // SAFETY: a non-NULL string argument is NUL-terminated, per
                // the spec; the entry point reads it the same way.
                let text = unsafe { CStr::from_ptr(text) }.to_string_lossy();
                let shown: String = text.chars().take(MAX_TEXT).collect();
                let more = if shown.len() < text.len() { "..." } else { "" };
                let _ = write!(out, "{:?}{more}", shown);
            }
        }
    }
}

/// The first [`MAX_ELEMENTS`] of `count` elements at `list`, none for
/// NULL.
///
/// # Safety
/// `list` is NULL or valid for reading `count` elements.
unsafe fn read_list<T: Copy>(list: *const T, count: usize) -> impl Iterator<Item = T> {
    let shown = if list.is_null() {
        0
    } else {
        count.min(MAX_ELEMENTS)
    };
    // SAFETY: at most `count` elements, valid by the caller's contract.
    (0..shown).map(move |index| unsafe { list.add(index).read_unaligned() })
}

/// `[a, b, ...]`, or `NULL`.
fn list_of(out: &mut String, address: usize, count: usize, items: impl Iterator<Item = String>) {
    if address == 0 {
        out.push_str("NULL");
        return;
    }
    let items: Vec<String> = items.collect();
    let more = if count > items.len() { ", ..." } else { "" };
    let _ = write!(out, "[{}{more}]", items.join(", "));
}

/// The names given to handles so far.
struct Names {
    by_address: HashMap<usize, String>,
    counts: HashMap<Kind, u64>,
}

impl Names {
    /// The handle's name, given on first sight.
    fn name(&mut self, kind: Kind, handle: usize) -> String {
        if handle == 0 {
            return "NULL".to_string();
        }
        if let Some(name) = self.by_address.get(&handle) {
            return name.clone();
        }
        self.fresh(kind, handle)
    }

    /// A new name for the handle of an object just created.
    fn fresh(&mut self, kind: Kind, handle: usize) -> String {
        let count = self.counts.entry(kind).or_insert(0);
        *count += 1;
        let name = format!("{}#{count}", kind.type_name());
        self.by_address.insert(handle, name.clone());
        name
    }
}

fn names() -> MutexGuard<'static, Names> {
    static NAMES: LazyLock<Mutex<Names>> = LazyLock::new(|| {
        Mutex::new(Names {
            by_address: HashMap::new(),
            counts: HashMap::new(),
        })
    });
    NAMES.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_named_bit_by_bit_and_whole_values_first() {
        let flags = opencl_sys::CL_MEM_READ_ONLY | opencl_sys::CL_MEM_COPY_HOST_PTR;
        assert_eq!(
            flags_name(flags, trace_names::MEM_FLAGS),
            "CL_MEM_READ_ONLY|CL_MEM_COPY_HOST_PTR"
        );
        assert_eq!(
            flags_name(opencl_sys::CL_DEVICE_TYPE_ALL, trace_names::DEVICE_TYPES),
            "CL_DEVICE_TYPE_ALL"
        );
        assert_eq!(flags_name(0, trace_names::MAP_FLAGS), "0");
        assert_eq!(
            flags_name(opencl_sys::CL_MAP_READ | 0x100, trace_names::MAP_FLAGS),
            "CL_MAP_READ|0x100"
        );
    }

    #[test]
    fn results_are_named() {
        assert_eq!(result_name(opencl_sys::CL_SUCCESS), "CL_SUCCESS");
        assert_eq!(
            result_name(opencl_sys::CL_INVALID_VALUE),
            "CL_INVALID_VALUE"
        );
        assert_eq!(result_name(-9999), "-9999");
    }

    #[test]
    fn created_objects_get_new_names_even_at_a_reused_address() {
        let first = names().fresh(Kind::Mem, 0x1000);
        assert_eq!(names().name(Kind::Mem, 0x1000), first);
        let second = names().fresh(Kind::Mem, 0x1000);
        assert_ne!(first, second);
        assert!(second.starts_with("cl_mem#"));
        assert_eq!(names().name(Kind::Mem, 0), "NULL");
    }
}
