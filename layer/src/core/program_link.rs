//! Separate compilation: `clCompileProgram` turns a source program into a
//! compiled object per device (a translation unit, see
//! [`translator::compile_unit`]), and `clLinkProgram` joins compiled objects
//! and libraries into a library or an executable.
//!
//! A program created from SPIR-V compiles to an object that holds its
//! module (and the specialization constant values set then); a link of
//! such objects and libraries builds all their modules together
//! ([`translator::Session::build_il`], which resolves their linkage
//! attributes). SPIR-V and OpenCL C inputs cannot be linked together: the
//! two are built by different front ends, and that link fails with a line
//! in its log.
//!
//! The translator inlines every function into its kernel, so linking is
//! translating the inputs' units together ([`translator::unit::link`]): a
//! kernel may call a function that another input defines, declared by a
//! prototype, and types that a shared header defines in several inputs are
//! one type. Units keep their original lines (with `#line` markers), so a
//! link error, such as a function called but defined nowhere or defined
//! twice, is reported in the link log at the line and column where it was
//! written.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use opencl_sys::{
    CL_BUILD_SUCCESS, CL_COMPILE_PROGRAM_FAILURE, CL_INVALID_COMPILER_OPTIONS,
    CL_INVALID_LINKER_OPTIONS, CL_INVALID_OPERATION, CL_LINK_PROGRAM_FAILURE,
};

use crate::core::context::Context;
use crate::core::device::Device;
use crate::core::object::Object;
use crate::core::program::{
    build_il_executable, crashed, executable_from, translator_failure, BuildFailure, DeviceBuild,
    Origin, Program, Unit,
};
use crate::core::program_binary::BinaryKind;
use crate::core::program_il::IlUnit;
use crate::core::CLResult;

/// The link option that makes a library instead of an executable.
const CREATE_LIBRARY_OPTION: &str = "-create-library";
/// Allows the link options of a library's inputs to be given again; the
/// translator takes its options at link time anyway, so it changes nothing.
const ENABLE_LINK_OPTIONS_OPTION: &str = "-enable-link-options";
/// The log of a link of SPIR-V with OpenCL C inputs.
const MIXED_LINK_ERROR: &str = "error: linking SPIR-V IL with OpenCL C source is not supported\n";

impl Program {
    /// `clCompileProgram` for `devices` (all of the program's when `None`):
    /// `headers` are `(include name, source)` that `#include` finds first
    /// (a program created from SPIR-V has no use for them).
    pub fn compile(
        &self,
        devices: Option<&[Arc<Object<Device>>]>,
        options: &str,
        headers: &[(String, String)],
    ) -> CLResult<()> {
        let targets = self.target_indices(devices)?;
        if let Some(il) = self.il() {
            return self.compile_il(&targets, options, il.unit());
        }
        if self.origin() != Origin::Source {
            return Err(CL_INVALID_OPERATION);
        }
        let headers: Vec<(&str, &str)> = headers
            .iter()
            .map(|(name, text)| (name.as_str(), text.as_str()))
            .collect();
        let failure = self.run_builds(&targets, options, |_, device| {
            let compiled = catch_unwind(AssertUnwindSafe(|| {
                device.translator().compile_unit(
                    self.source(),
                    options,
                    device.build_caps(),
                    &headers,
                )
            }));
            match compiled {
                Ok(Ok(unit)) => (
                    DeviceBuild {
                        status: CL_BUILD_SUCCESS,
                        log: unit.log,
                        kind: Some(BinaryKind::CompiledObject),
                        unit: Some(Unit::Source(unit.text.into())),
                        ..DeviceBuild::in_progress(options)
                    },
                    None,
                ),
                Ok(Err(error)) => translator_failure(options, error),
                Err(_) => crashed(options),
            }
        })?;
        compile_result(failure)
    }

    /// `clCompileProgram` of a program created from SPIR-V: the object is
    /// the module itself (the front end reads it at the link), once the
    /// options are ones a build takes.
    fn compile_il(&self, targets: &[usize], options: &str, unit: IlUnit) -> CLResult<()> {
        let failure = self.run_builds(targets, options, |_, _| {
            il_object(BinaryKind::CompiledObject, unit.clone(), options)
        })?;
        compile_result(failure)
    }

    /// `clLinkProgram`: a new program for `devices` (the context's when
    /// `None`) from `inputs`, each compiled or a library for every one of
    /// those devices. Once the link can begin (valid options and inputs),
    /// the program comes back also when the link failed, with the error, so
    /// that its log can be read.
    pub fn link(
        context: &Arc<Object<Context>>,
        devices: Option<Vec<Arc<Object<Device>>>>,
        options: &str,
        inputs: &[Arc<Object<Program>>],
    ) -> CLResult<(Arc<Object<Program>>, CLResult<()>)> {
        let devices = devices.unwrap_or_else(|| context.devices().to_vec());
        let link = LinkOptions::parse(options);
        // With options it cannot take, the link cannot begin: no program.
        if translator::BuildOptions::parse(&link.translator).is_err() {
            return Err(CL_INVALID_LINKER_OPTIONS);
        }
        // Each device's inputs, in input order: (unit, compile options).
        let mut per_device: Vec<Vec<(Unit, String)>> = Vec::with_capacity(devices.len());
        for device in &devices {
            let mut units = Vec::with_capacity(inputs.len());
            for input in inputs {
                let index = input.device_index(device)?;
                let builds = input.builds();
                let build = &builds[index];
                let linkable = matches!(
                    build.kind,
                    Some(BinaryKind::CompiledObject | BinaryKind::Library)
                );
                match (&build.unit, linkable) {
                    (Some(unit), true) => units.push((unit.clone(), build.options.clone())),
                    _ => return Err(CL_INVALID_OPERATION),
                }
            }
            per_device.push(units);
        }
        let mut failure = None;
        let mut builds = Vec::with_capacity(devices.len());
        for (device, units) in devices.iter().zip(&per_device) {
            let (build, failed) = link_for(device, units, &link);
            failure = failure.or(failed);
            builds.push(build);
        }
        let program = Program::new(context, devices, Origin::Link, String::new(), builds);
        let result = match failure {
            None => Ok(()),
            Some(BuildFailure::Options) => Err(CL_INVALID_LINKER_OPTIONS),
            Some(BuildFailure::Compile) => Err(CL_LINK_PROGRAM_FAILURE),
        };
        Ok((program, result))
    }
}

/// Link options split into what the linker itself acts on and what goes to
/// the translator.
struct LinkOptions {
    create_library: bool,
    translator: String,
}

impl LinkOptions {
    fn parse(options: &str) -> Self {
        let mut create_library = false;
        let mut translator = Vec::new();
        for option in options.split_whitespace() {
            match option {
                CREATE_LIBRARY_OPTION => create_library = true,
                ENABLE_LINK_OPTIONS_OPTION => {}
                other => translator.push(other),
            }
        }
        LinkOptions {
            create_library,
            translator: translator.join(" "),
        }
    }
}

/// The status of `clCompileProgram` for the first failure of its builds.
fn compile_result(failure: Option<BuildFailure>) -> CLResult<()> {
    match failure {
        None => Ok(()),
        Some(BuildFailure::Options) => Err(CL_INVALID_COMPILER_OPTIONS),
        Some(BuildFailure::Compile) => Err(CL_COMPILE_PROGRAM_FAILURE),
    }
}

/// Links one device's units. The first input's compile options come before
/// the link options, so that language options such as `-cl-std` and
/// `-cl-kernel-arg-info` given at compile time still apply.
fn link_for(
    device: &Arc<Object<Device>>,
    units: &[(Unit, String)],
    link: &LinkOptions,
) -> (DeviceBuild, Option<BuildFailure>) {
    let options = match units.first() {
        Some((_, compile_options)) if !compile_options.is_empty() => {
            format!("{compile_options} {}", link.translator)
        }
        _ => link.translator.clone(),
    };
    let mut sources = Vec::with_capacity(units.len());
    let mut modules = Vec::with_capacity(units.len());
    for (unit, _) in units {
        match unit {
            Unit::Source(text) => sources.push(&**text),
            Unit::Il(il) => modules.push(il),
        }
    }
    if !sources.is_empty() && !modules.is_empty() {
        return (
            DeviceBuild::failed(&options, MIXED_LINK_ERROR.to_owned()),
            Some(BuildFailure::Compile),
        );
    }
    if !modules.is_empty() {
        return link_il(device, IlUnit::joined(modules), &options, link);
    }
    let units = sources;
    if link.create_library {
        // Calls may stay unresolved until the final link.
        let checked = catch_unwind(AssertUnwindSafe(|| {
            device
                .translator()
                .link_library(&units, &options, device.build_caps())
        }));
        return match checked {
            Ok(Ok(library)) => (
                DeviceBuild {
                    status: CL_BUILD_SUCCESS,
                    log: library.log,
                    kind: Some(BinaryKind::Library),
                    unit: Some(Unit::Source(library.text.into())),
                    ..DeviceBuild::in_progress(&options)
                },
                None,
            ),
            Ok(Err(error)) => translator_failure(&options, error),
            Err(_) => crashed(&options),
        };
    }
    let linked = catch_unwind(AssertUnwindSafe(|| {
        device
            .translator()
            .link(&units, &options, device.build_caps())
    }));
    let (mut build, failed) = executable_from(device, &options, linked);
    if failed.is_none() {
        build.unit = Some(Unit::Source(units.concat().into()));
    }
    (build, failed)
}

/// Links SPIR-V objects and libraries: a library keeps their modules for
/// the final link (whose build resolves the linkage attributes), an
/// executable builds them all.
fn link_il(
    device: &Arc<Object<Device>>,
    unit: IlUnit,
    options: &str,
    link: &LinkOptions,
) -> (DeviceBuild, Option<BuildFailure>) {
    if link.create_library {
        il_object(BinaryKind::Library, unit, options)
    } else {
        build_il_executable(device, unit, options)
    }
}

/// A compiled object or library of SPIR-V: the modules kept as they are,
/// once `options` are ones the final build will take.
fn il_object(kind: BinaryKind, unit: IlUnit, options: &str) -> (DeviceBuild, Option<BuildFailure>) {
    match translator::BuildOptions::parse(options) {
        Ok(_) => (
            DeviceBuild {
                status: CL_BUILD_SUCCESS,
                kind: Some(kind),
                unit: Some(Unit::Il(unit)),
                ..DeviceBuild::in_progress(options)
            },
            None,
        ),
        Err(error) => translator_failure(options, translator::BuildError::InvalidOptions(error)),
    }
}
