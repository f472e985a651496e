//! The size-query-then-copy protocol shared by every `clGet*Info`: a query
//! produces an `InfoValue` (the exact bytes the spec defines for the
//! parameter), and `write_info` hands it to the application.

use std::ffi::c_void;

use bytemuck::NoUninit;
use opencl_sys::{
    cl_bool, cl_version, CL_FALSE, CL_INVALID_VALUE, CL_NAME_VERSION_MAX_NAME_SIZE, CL_TRUE,
};

use crate::core::object::Object;
use crate::core::CLResult;

/// The value of one info parameter, as bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct InfoValue(Vec<u8>);

impl InfoValue {
    pub(crate) fn scalar<T: NoUninit>(value: T) -> Self {
        InfoValue(bytemuck::bytes_of(&value).to_vec())
    }

    pub(crate) fn array<T: NoUninit>(values: &[T]) -> Self {
        InfoValue(bytemuck::cast_slice(values).to_vec())
    }

    /// A NUL-terminated string.
    pub(crate) fn string(value: &str) -> Self {
        let mut bytes = Vec::with_capacity(value.len() + 1);
        bytes.extend_from_slice(value.as_bytes());
        bytes.push(0);
        InfoValue(bytes)
    }

    pub(crate) fn bool(value: bool) -> Self {
        Self::scalar::<cl_bool>(if value { CL_TRUE } else { CL_FALSE })
    }

    /// A handle, or NULL.
    pub(crate) fn handle<T>(object: Option<&Object<T>>) -> Self {
        Self::scalar(object.map_or(0, |o| o.handle() as usize))
    }

    pub(crate) fn handles<T>(objects: impl IntoIterator<Item = impl AsRef<Object<T>>>) -> Self {
        let addresses: Vec<usize> = objects
            .into_iter()
            .map(|o| o.as_ref().handle() as usize)
            .collect();
        Self::array(&addresses)
    }

    /// An array of `cl_name_version`: the version, then the name in a
    /// 64-byte NUL-padded field.
    pub(crate) fn name_versions<'a>(list: impl IntoIterator<Item = (&'a str, cl_version)>) -> Self {
        let mut bytes = Vec::new();
        for (name, version) in list {
            bytes.extend_from_slice(&version.to_ne_bytes());
            let mut field = [0u8; CL_NAME_VERSION_MAX_NAME_SIZE];
            let length = name.len().min(CL_NAME_VERSION_MAX_NAME_SIZE - 1);
            field[..length].copy_from_slice(&name.as_bytes()[..length]);
            bytes.extend_from_slice(&field);
        }
        InfoValue(bytes)
    }

    /// A value the spec defines as nothing at all (size 0), such as the IL
    /// of a program built from source.
    pub(crate) fn empty() -> Self {
        InfoValue(Vec::new())
    }

    pub(crate) fn bytes(&self) -> &[u8] {
        &self.0
    }
}

/// The protocol: with a destination, it must hold the whole value
/// (`CL_INVALID_VALUE` otherwise) and receives it; without one, only the
/// size is reported. Returns the value's size.
pub(crate) fn copy_info(value: &[u8], destination: Option<&mut [u8]>) -> CLResult<usize> {
    if let Some(destination) = destination {
        let target = destination.get_mut(..value.len()).ok_or(CL_INVALID_VALUE)?;
        target.copy_from_slice(value);
    }
    Ok(value.len())
}

/// Gives `value` to the application through the standard
/// `param_value_size`, `param_value`, `param_value_size_ret` triple. Only
/// the value's own bytes are touched, however large `param_value_size` is
/// (`SIZE_MAX` included: the spec's one condition is that it is not
/// smaller than the value).
///
/// # Safety
/// `param_value` is NULL or valid for writing `param_value_size` bytes;
/// `param_value_size_ret` is NULL or valid for writing a `size_t`.
pub(crate) unsafe fn write_info(
    value: &InfoValue,
    param_value_size: usize,
    param_value: *mut c_void,
    param_value_size_ret: *mut usize,
) -> CLResult<()> {
    let destination = if param_value.is_null() {
        None
    } else {
        let length = param_value_size.min(value.bytes().len());
        // SAFETY: the caller's contract: param_value_size writable bytes
        // that nothing else accesses during the call, of which the first
        // `length` (at most the value's size) are used.
        Some(unsafe { std::slice::from_raw_parts_mut(param_value.cast::<u8>(), length) })
    };
    let size = copy_info(value.bytes(), destination)?;
    // SAFETY: the caller's contract for param_value_size_ret.
    unsafe { crate::api::call::write_if_not_null(param_value_size_ret, size) };
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_query_reports_the_size_without_writing() {
        let value = InfoValue::string("clvulkan");
        assert_eq!(copy_info(value.bytes(), None), Ok(9));
    }

    #[test]
    fn exact_and_larger_destinations_receive_the_value() {
        let value = InfoValue::scalar(0x0102_0304u32);
        let mut exact = [0u8; 4];
        assert_eq!(copy_info(value.bytes(), Some(&mut exact)), Ok(4));
        assert_eq!(u32::from_ne_bytes(exact), 0x0102_0304);
        let mut larger = [0xffu8; 6];
        assert_eq!(copy_info(value.bytes(), Some(&mut larger)), Ok(4));
        assert_eq!(larger[4..], [0xff, 0xff]);
    }

    #[test]
    fn too_small_a_destination_is_invalid_value() {
        let value = InfoValue::string("clvulkan");
        let mut small = [0u8; 8];
        assert_eq!(
            copy_info(value.bytes(), Some(&mut small)),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(small, [0; 8]);
    }

    #[test]
    fn write_info_follows_the_protocol_through_raw_pointers() {
        let value = InfoValue::scalar(7u64);
        let mut size = 0usize;
        let mut out = 0u64;
        // SAFETY: pointers to live locals of the stated sizes.
        unsafe {
            write_info(&value, 0, std::ptr::null_mut(), &mut size).unwrap();
            assert_eq!(size, 8);
            write_info(
                &value,
                8,
                (&mut out as *mut u64).cast(),
                std::ptr::null_mut(),
            )
            .unwrap();
            assert_eq!(out, 7);
            assert_eq!(
                write_info(&value, 4, (&mut out as *mut u64).cast(), &mut size),
                Err(CL_INVALID_VALUE)
            );
        }
    }

    #[test]
    fn name_versions_have_the_c_layout() {
        let value = InfoValue::name_versions([("cl_khr_icd", 1 << 22)]);
        assert_eq!(
            value.bytes().len(),
            size_of::<opencl_sys::cl_name_version>()
        );
        assert_eq!(&value.bytes()[..4], &(1u32 << 22).to_ne_bytes());
        assert_eq!(&value.bytes()[4..14], b"cl_khr_icd");
        assert_eq!(value.bytes()[14], 0);
    }

    #[test]
    fn strings_are_nul_terminated() {
        assert_eq!(InfoValue::string("ab").bytes(), b"ab\0");
        assert_eq!(InfoValue::empty().bytes().len(), 0);
    }
}
