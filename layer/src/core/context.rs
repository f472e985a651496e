//! An OpenCL context: the devices it spans, the properties it was created
//! with, the host memory its buffers move between devices through, and
//! the application's notification and destructor callbacks.

use std::sync::Arc;

use opencl_sys::{cl_context_properties, CL_INVALID_CONTEXT};

use crate::core::bridge::Bridges;
use crate::core::device::Device;
use crate::core::host::{ContextNotify, DestructorCallback, DestructorCallbacks};
use crate::core::object::{ClObject, Object, ObjectKind};
use crate::core::CLResult;

pub struct Context {
    devices: Vec<Arc<Object<Device>>>,
    /// Host memory imported into the devices, made on the first move of a
    /// buffer from one to another (see [`crate::core::migration`]).
    bridges: Bridges,
    /// The property list as given, terminator included; empty when the
    /// application passed NULL (`CL_CONTEXT_PROPERTIES` returns it as is).
    properties: Vec<cl_context_properties>,
    notify: Option<ContextNotify>,
    /// Last, so the callbacks run after everything else is released.
    destructor_callbacks: DestructorCallbacks,
}

impl ClObject for Context {
    const KIND: ObjectKind = ObjectKind::Context;
    const INVALID: opencl_sys::cl_int = CL_INVALID_CONTEXT;
}

impl Context {
    /// Creates the devices' Vulkan logical devices now, so that a device
    /// that cannot be opened fails context creation rather than a later call.
    pub fn new(
        devices: Vec<Arc<Object<Device>>>,
        properties: Vec<cl_context_properties>,
        notify: Option<ContextNotify>,
    ) -> CLResult<Arc<Object<Context>>> {
        for device in &devices {
            device.vk()?;
        }
        Ok(Object::new(Context {
            bridges: Bridges::new(&devices),
            devices,
            properties,
            notify,
            destructor_callbacks: DestructorCallbacks::default(),
        }))
    }

    pub fn devices(&self) -> &[Arc<Object<Device>>] {
        &self.devices
    }

    /// What buffers move between this context's devices through.
    pub fn bridges(&self) -> &Bridges {
        &self.bridges
    }

    pub fn has_device(&self, device: &Object<Device>) -> bool {
        self.devices.iter().any(|d| d.is(device))
    }

    pub fn properties(&self) -> &[cl_context_properties] {
        &self.properties
    }

    /// Reports an error that has no API call left to return it from.
    pub fn notify(&self, message: &str) {
        if let Some(notify) = &self.notify {
            notify(message);
        }
    }

    pub fn add_destructor_callback(&self, callback: DestructorCallback) {
        self.destructor_callbacks.add(callback);
    }
}
