//! `clvulkan install [--prefix DIR] [--icd-dir DIR]` and `clvulkan
//! uninstall` with the same options: puts a source build where every
//! OpenCL application finds it, and takes it away again.
//!
//! Install copies the ICD to `PREFIX/lib/libclvulkan.so` and this program
//! to `PREFIX/bin/clvulkan`, then writes `clvulkan.icd`, naming the
//! library's absolute path, into the ICD directory: `/etc/OpenCL/vendors`
//! (where ocl-icd and the Khronos loader look) for the default prefix
//! `/usr/local`, and `PREFIX/etc/OpenCL/vendors` for any other prefix, so
//! that a trial install into a folder of one's own touches nothing outside
//! it (the loaders find it through `OCL_ICD_VENDORS`, which the command
//! prints). `--icd-dir` chooses the directory, say to register an install
//! under `/opt` system-wide. Uninstall removes the three files, the `.icd`
//! only when it names this prefix's library.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Where an install goes by default.
pub const DEFAULT_PREFIX: &str = "/usr/local";
/// Where the loaders look for `.icd` files.
pub const SYSTEM_ICD_DIR: &str = "/etc/OpenCL/vendors";
/// The file that registers clvulkan with the loaders.
pub const ICD_FILE: &str = "clvulkan.icd";
/// The library's name, in the build and in an install.
pub const LIBRARY: &str = "libclvulkan.so";
/// This program's name.
pub const PROGRAM: &str = "clvulkan";

/// The paths an install writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub library: PathBuf,
    pub program: PathBuf,
    pub icd: PathBuf,
}

impl Layout {
    /// The layout for `prefix` (absolute) and an ICD directory, if chosen.
    pub fn new(prefix: &Path, icd_dir: Option<&Path>) -> Layout {
        let icd_dir = match icd_dir {
            Some(dir) => dir.to_path_buf(),
            None if prefix == Path::new(DEFAULT_PREFIX) => PathBuf::from(SYSTEM_ICD_DIR),
            None => prefix.join("etc/OpenCL/vendors"),
        };
        Layout {
            library: prefix.join("lib").join(LIBRARY),
            program: prefix.join("bin").join(PROGRAM),
            icd: icd_dir.join(ICD_FILE),
        }
    }

    /// What the `.icd` file holds: the library's absolute path.
    pub fn icd_contents(&self) -> String {
        format!("{}\n", self.library.display())
    }
}

/// Why an install or uninstall failed.
#[derive(Debug)]
pub enum InstallError {
    Usage(String),
    /// A file could not be read, written or removed.
    Io {
        path: PathBuf,
        error: io::Error,
    },
    /// The `.icd` there names another library; it is left alone.
    ForeignIcd {
        path: PathBuf,
        names: String,
    },
}

impl fmt::Display for InstallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstallError::Usage(message) => write!(f, "{message}"),
            InstallError::Io { path, error } => {
                write!(f, "{}: {error}", path.display())?;
                if error.kind() == io::ErrorKind::PermissionDenied {
                    write!(f, " (run as root, or choose --prefix)")?;
                }
                Ok(())
            }
            InstallError::ForeignIcd { path, names } => write!(
                f,
                "{} names {names}, not this install's library; left in place",
                path.display()
            ),
        }
    }
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> InstallError + '_ {
    move |error| InstallError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// The options both commands take.
fn parse(args: &[String]) -> Result<Layout, InstallError> {
    let mut prefix = PathBuf::from(DEFAULT_PREFIX);
    let mut icd_dir = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .map(PathBuf::from)
                .ok_or_else(|| InstallError::Usage(format!("{name} needs a directory")))
        };
        match arg.as_str() {
            "--prefix" => prefix = value("--prefix")?,
            "--icd-dir" => icd_dir = Some(value("--icd-dir")?),
            other => return Err(InstallError::Usage(format!("unknown option '{other}'"))),
        }
    }
    let absolute = |path: PathBuf| std::path::absolute(&path).map_err(io_error(&path));
    let prefix = absolute(prefix)?;
    let icd_dir = icd_dir.map(absolute).transpose()?;
    Ok(Layout::new(&prefix, icd_dir.as_deref()))
}

/// Copies `from` to `to` through a temporary file and a rename, so that a
/// process still running the old file keeps a whole one.
fn copy_into_place(from: &Path, to: &Path, mode: u32) -> Result<(), InstallError> {
    use std::os::unix::fs::PermissionsExt;
    let dir = to.parent().expect("an installed path has a folder");
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    let temporary = to.with_extension("clvulkan-new");
    std::fs::copy(from, &temporary).map_err(io_error(&temporary))?;
    std::fs::set_permissions(&temporary, std::fs::Permissions::from_mode(mode))
        .map_err(io_error(&temporary))?;
    std::fs::rename(&temporary, to).map_err(io_error(to))
}

/// `clvulkan install`: `library` is the built ICD, `program` this program.
pub fn install(args: &[String], library: &Path, program: &Path) -> Result<(), InstallError> {
    let layout = parse(args)?;
    copy_into_place(library, &layout.library, 0o644)?;
    copy_into_place(program, &layout.program, 0o755)?;
    let icd_dir = layout.icd.parent().expect("the .icd has a folder");
    std::fs::create_dir_all(icd_dir).map_err(io_error(icd_dir))?;
    std::fs::write(&layout.icd, layout.icd_contents()).map_err(io_error(&layout.icd))?;
    println!("installed {}", layout.library.display());
    println!("installed {}", layout.program.display());
    println!("registered {} in {}", LIBRARY, layout.icd.display());
    if icd_dir != Path::new(SYSTEM_ICD_DIR) {
        println!(
            "the loaders do not look in {} unless told: OCL_ICD_VENDORS={} (ocl-icd), OCL_ICD_FILENAMES={} (Khronos loader)",
            icd_dir.display(),
            icd_dir.display(),
            layout.library.display()
        );
    }
    Ok(())
}

/// `clvulkan uninstall`: removes what `install` with the same options
/// wrote; files already gone are not an error.
pub fn uninstall(args: &[String]) -> Result<(), InstallError> {
    let layout = parse(args)?;
    match std::fs::read_to_string(&layout.icd) {
        Ok(contents) if contents.trim() == layout.library.to_string_lossy() => {
            remove(&layout.icd)?;
        }
        Ok(contents) => {
            return Err(InstallError::ForeignIcd {
                path: layout.icd.clone(),
                names: contents.trim().to_string(),
            })
        }
        Err(error) if error.kind() == io::ErrorKind::NotFound => {}
        Err(error) => return Err(io_error(&layout.icd)(error)),
    }
    remove(&layout.library)?;
    remove(&layout.program)?;
    Ok(())
}

fn remove(path: &Path) -> Result<(), InstallError> {
    match std::fs::remove_file(path) {
        Ok(()) => {
            println!("removed {}", path.display());
            Ok(())
        }
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(io_error(path)(error)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_prefix_registers_system_wide_and_others_stay_inside() {
        let system = Layout::new(Path::new("/usr/local"), None);
        assert_eq!(system.library, Path::new("/usr/local/lib/libclvulkan.so"));
        assert_eq!(system.program, Path::new("/usr/local/bin/clvulkan"));
        assert_eq!(system.icd, Path::new("/etc/OpenCL/vendors/clvulkan.icd"));
        assert_eq!(system.icd_contents(), "/usr/local/lib/libclvulkan.so\n");
        let trial = Layout::new(Path::new("/tmp/x"), None);
        assert_eq!(
            trial.icd,
            Path::new("/tmp/x/etc/OpenCL/vendors/clvulkan.icd")
        );
        let chosen = Layout::new(Path::new("/opt/cl"), Some(Path::new("/etc/OpenCL/vendors")));
        assert_eq!(chosen.icd, Path::new("/etc/OpenCL/vendors/clvulkan.icd"));
    }

    #[test]
    fn bad_options_are_refused() {
        assert!(matches!(
            parse(&["--prefix".into()]),
            Err(InstallError::Usage(_))
        ));
        assert!(matches!(
            parse(&["--force".into()]),
            Err(InstallError::Usage(_))
        ));
    }
}
