//! Resolution of the image built-ins: forms by image type, access and
//! depth, coordinate types, results.

use super::*;
use crate::image::{ImageAccess, ImageDim};
use crate::types::{ImageType, Opaque};

fn image(dim: ImageDim, depth: bool, access: ImageAccess) -> Type {
    Type::Opaque(Opaque::Image(ImageType { dim, depth, access }))
}

const SAMPLER: Type = Type::Opaque(Opaque::Sampler);

fn v(s: Scalar, n: u8) -> Type {
    Type::Vector(s, n)
}

#[test]
fn reads_take_coordinates_by_dimension_and_return_by_kind() {
    use ImageAccess::*;
    let i2 = image(ImageDim::D2, false, ReadOnly);
    let r = ok("read_imagef", &[i2, SAMPLER, v(Scalar::Float, 2)]);
    assert_eq!(r.builtin, Builtin::Image(ImageBuiltin::Read(Texel::Float)));
    assert_eq!(r.params, vec![i2, SAMPLER, v(Scalar::Float, 2)]);
    assert_eq!(r.result, v(Scalar::Float, 4));
    // An integer literal where the sampler goes converts to it.
    let r = ok("read_imagei", &[i2, Type::INT, v(Scalar::Int, 2)]);
    assert_eq!(r.params[1], SAMPLER);
    assert_eq!(r.result, v(Scalar::Int, 4));
    let r = ok("read_imageui", &[i2, v(Scalar::Int, 2)]);
    assert_eq!(r.result, v(Scalar::UInt, 4));
    // 1D images take a scalar that converts.
    let i1 = image(ImageDim::D1, false, ReadOnly);
    let r = ok("read_imagef", &[i1, SAMPLER, Type::UINT]);
    assert_eq!(r.params[2], Type::INT);
    // 3D and 2D arrays take four lanes; the depth images give a float.
    let d2a = image(ImageDim::D2Array, true, ReadOnly);
    let r = ok("read_imagef", &[d2a, v(Scalar::Int, 4)]);
    assert_eq!(r.result, Type::FLOAT);
    assert!(err("read_imagef", &[d2a, v(Scalar::Int, 2)]).contains("no matching function"));
    assert!(err("read_imageui", &[d2a, v(Scalar::Int, 4)]).contains("no matching function"));
    // Samplers only with read_only images, never with texel buffers;
    // samplerless reads of read_write images.
    let rw = image(ImageDim::D2, false, ReadWrite);
    assert!(err("read_imagef", &[rw, SAMPLER, v(Scalar::Int, 2)]).contains("no matching"));
    ok("read_imagef", &[rw, v(Scalar::Int, 2)]);
    let buffer = image(ImageDim::D1Buffer, false, ReadOnly);
    assert!(err("read_imagef", &[buffer, SAMPLER, Type::INT]).contains("no matching"));
    ok("read_imagef", &[buffer, Type::INT]);
    // Samplerless reads take integer coordinates only.
    assert!(err("read_imagef", &[i2, v(Scalar::Float, 2)]).contains("no matching"));
    // read_imageh needs cl_khr_fp16.
    assert!(err("read_imageh", &[i2, v(Scalar::Int, 2)]).contains("no matching"));
    let fp16 = BuiltinContext {
        float16: true,
        ..CTX
    };
    let r = ok_in("read_imageh", &[i2, v(Scalar::Int, 2)], &fp16);
    assert_eq!(r.result, v(Scalar::Half, 4));
}

#[test]
fn writes_need_writable_images() {
    use ImageAccess::*;
    let w3 = image(ImageDim::D3, false, WriteOnly);
    let r = ok(
        "write_imagef",
        &[w3, v(Scalar::Int, 4), v(Scalar::Float, 4)],
    );
    assert_eq!(r.result, Type::Void);
    let no_3d = BuiltinContext {
        image_3d_writes: false,
        ..CTX
    };
    let e = err_in(
        "write_imagef",
        &[w3, v(Scalar::Int, 4), v(Scalar::Float, 4)],
        &no_3d,
    );
    assert!(e.contains("__opencl_c_3d_image_writes"), "{e}");
    let r2 = image(ImageDim::D2, false, ReadOnly);
    let e = err(
        "write_imageui",
        &[r2, v(Scalar::Int, 2), v(Scalar::UInt, 4)],
    );
    assert!(e.contains("'__read_only'"), "{e}");
    let d2 = image(ImageDim::D2, true, ReadWrite);
    let r = ok("write_imagef", &[d2, v(Scalar::Int, 2), Type::FLOAT]);
    assert_eq!(r.params[2], Type::FLOAT);
    // Colours must be the four-lane vector of the kind.
    let w2 = image(ImageDim::D2, false, WriteOnly);
    assert!(
        err("write_imagei", &[w2, v(Scalar::Int, 2), v(Scalar::UInt, 4)]).contains("no matching")
    );
    assert_eq!(
        err("write_imagef", &[w2, v(Scalar::Int, 2)]),
        "too few arguments to function call 'write_imagef', expected 3, have 2"
    );
}

#[test]
fn queries_exist_for_the_dimensions_an_image_has() {
    use ImageAccess::*;
    let i3 = image(ImageDim::D3, false, ReadOnly);
    assert_eq!(ok("get_image_dim", &[i3]).result, v(Scalar::Int, 4));
    assert_eq!(ok("get_image_depth", &[i3]).result, Type::INT);
    let a2 = image(ImageDim::D2Array, false, WriteOnly);
    assert_eq!(ok("get_image_dim", &[a2]).result, v(Scalar::Int, 2));
    assert_eq!(
        ok("get_image_array_size", &[a2]).result,
        Type::Scalar(CTX.size_type)
    );
    let i1 = image(ImageDim::D1, false, ReadOnly);
    assert_eq!(ok("get_image_channel_order", &[i1]).result, Type::INT);
    for q in [
        "get_image_height",
        "get_image_dim",
        "get_image_array_size",
        "get_image_depth",
    ] {
        assert!(err(q, &[i1]).contains("no matching function"), "{q}");
    }
    assert_eq!(
        Builtin::from_name("get_image_channel_data_type").map(|b| b.to_string()),
        Some("get_image_channel_data_type".to_string())
    );
    assert_eq!(
        Builtin::from_name("write_imageui").map(|b| b.to_string()),
        Some("write_imageui".to_string())
    );
}
