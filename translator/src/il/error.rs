//! Why a SPIR-V module cannot be read at all (as opposed to the build
//! errors of a module that reads but uses what is not supported, which go
//! to the build log).

/// A module that is not SPIR-V the front end can read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IlError {
    /// Shorter than a header, or not a whole number of words.
    Truncated,
    /// The first word is not SPIR-V's magic number (in either byte order).
    NotSpirv,
    /// A SPIR-V version outside [`super::SPIRV_VERSIONS`].
    UnsupportedVersion(u32, u32),
    /// The instruction stream does not parse: rspirv's reason.
    Malformed(String),
}

impl std::fmt::Display for IlError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IlError::Truncated => f.write_str("the SPIR-V module is truncated"),
            IlError::NotSpirv => f.write_str("not a SPIR-V module (no magic number)"),
            IlError::UnsupportedVersion(major, minor) => {
                write!(
                    f,
                    "SPIR-V {major}.{minor} is not supported (1.0 to 1.5 are)"
                )
            }
            IlError::Malformed(why) => write!(f, "malformed SPIR-V module: {why}"),
        }
    }
}

impl std::error::Error for IlError {}
