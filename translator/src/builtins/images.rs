//! The image built-ins of OpenCL C 3.0 s6.15.15: `read_image{f,i,ui,h}`
//! (with a sampler and `int` or `float` coordinates, or without a sampler
//! and `int` coordinates), `write_image{f,i,ui,h}` and the `get_image_*`
//! queries, resolved by the image type of the first argument rather than
//! from the overload table: which forms exist depends on the image's
//! dimensionality, depth and access qualifier.

use super::{Builtin, BuiltinContext, Resolved};
use crate::image::{ImageAccess, ImageDim};
use crate::types::{ImageType, Opaque, Scalar, Type};

/// One image built-in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageBuiltin {
    Read(Texel),
    Write(Texel),
    Query(ImageQuery),
}

/// The element type a `read_image*`/`write_image*` name reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Texel {
    Float,
    Half,
    Int,
    UInt,
}

/// `get_image_<query>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageQuery {
    Width,
    Height,
    Depth,
    ArraySize,
    Dim,
    ChannelDataType,
    ChannelOrder,
}

const TEXELS: &[(&str, Texel)] = &[
    ("f", Texel::Float),
    ("h", Texel::Half),
    ("i", Texel::Int),
    ("ui", Texel::UInt),
];

const QUERIES: &[(&str, ImageQuery)] = &[
    ("width", ImageQuery::Width),
    ("height", ImageQuery::Height),
    ("depth", ImageQuery::Depth),
    ("array_size", ImageQuery::ArraySize),
    ("dim", ImageQuery::Dim),
    ("channel_data_type", ImageQuery::ChannelDataType),
    ("channel_order", ImageQuery::ChannelOrder),
];

impl Texel {
    fn suffix(self) -> &'static str {
        TEXELS
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("", |(s, _)| s)
    }

    /// The element type of the values read or written.
    pub fn scalar(self) -> Scalar {
        match self {
            Texel::Float => Scalar::Float,
            Texel::Half => Scalar::Half,
            Texel::Int => Scalar::Int,
            Texel::UInt => Scalar::UInt,
        }
    }
}

impl ImageBuiltin {
    pub(super) fn parse(name: &str) -> Option<ImageBuiltin> {
        if let Some(rest) = name.strip_prefix("read_image") {
            let &(_, t) = TEXELS.iter().find(|(s, _)| *s == rest)?;
            return Some(ImageBuiltin::Read(t));
        }
        if let Some(rest) = name.strip_prefix("write_image") {
            let &(_, t) = TEXELS.iter().find(|(s, _)| *s == rest)?;
            return Some(ImageBuiltin::Write(t));
        }
        let rest = name.strip_prefix("get_image_")?;
        let &(_, q) = QUERIES.iter().find(|(s, _)| *s == rest)?;
        Some(ImageBuiltin::Query(q))
    }
}

impl std::fmt::Display for ImageBuiltin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            ImageBuiltin::Read(t) => write!(f, "read_image{}", t.suffix()),
            ImageBuiltin::Write(t) => write!(f, "write_image{}", t.suffix()),
            ImageBuiltin::Query(q) => {
                let name = QUERIES.iter().find(|(_, x)| *x == q).map_or("", |(s, _)| s);
                write!(f, "get_image_{name}")
            }
        }
    }
}

/// The coordinate type for `image` with `element` (`int` or `float`).
fn coordinate(image: ImageType, element: Scalar) -> Type {
    match image.dim.coordinate_count() {
        1 => Type::Scalar(element),
        n => Type::Vector(element, n as u8),
    }
}

/// The overload of `b` for arguments `args`, or why there is none.
pub(super) fn resolve(
    b: ImageBuiltin,
    args: &[Type],
    ctx: &BuiltinContext,
    no_match: impl Fn() -> String,
) -> Result<Resolved, String> {
    let name = b.to_string();
    let Some(image) = args.first().and_then(Type::image) else {
        if args.is_empty() {
            let fewest = match b {
                ImageBuiltin::Read(_) => 2,
                ImageBuiltin::Write(_) => 3,
                ImageBuiltin::Query(_) => 1,
            };
            return Err(arity(&name, 0, fewest, fewest));
        }
        return Err(no_match());
    };
    let resolved = |params: Vec<Type>, result: Type| Resolved {
        builtin: Builtin::Image(b),
        params,
        result,
    };
    match b {
        ImageBuiltin::Read(texel) => {
            if image.access == ImageAccess::WriteOnly {
                return Err(format!(
                    "'{name}' reads from an image declared '__write_only'"
                ));
            }
            let half_ok = texel != Texel::Half || ctx.float16;
            // Depth images read one `float` (OpenCL C s6.15.15.2).
            let result = match (image.depth, texel) {
                (true, Texel::Float) => Type::FLOAT,
                (true, _) => return Err(no_match()),
                (false, t) => Type::Vector(t.scalar(), 4),
            };
            if !half_ok {
                return Err(no_match());
            }
            let arg_ty = image_arg(image);
            match args {
                // The samplerless forms take `int` coordinates.
                [_, coord] => {
                    let c = coordinate(image, Scalar::Int);
                    coordinate_fits(*coord, c).ok_or_else(&no_match)?;
                    Ok(resolved(vec![arg_ty, c], result))
                }
                // With a sampler: only `read_only` images of a type that a
                // sampler applies to (not `image1d_buffer_t`), `int` or
                // `float` coordinates.
                [_, sampler, coord] => {
                    let sampler_ok = sampler.is_sampler() || sampler.is_integer_scalar();
                    if !sampler_ok
                        || image.dim == ImageDim::D1Buffer
                        || image.access != ImageAccess::ReadOnly
                    {
                        return Err(no_match());
                    }
                    let element = match coord.element() {
                        Some(Scalar::Float) => Scalar::Float,
                        Some(s) if s.is_integer() => Scalar::Int,
                        _ => return Err(no_match()),
                    };
                    let c = coordinate(image, element);
                    coordinate_fits(*coord, c).ok_or_else(&no_match)?;
                    Ok(resolved(
                        vec![arg_ty, Type::Opaque(Opaque::Sampler), c],
                        result,
                    ))
                }
                _ => Err(arity(&name, args.len(), 2, 3)),
            }
        }
        ImageBuiltin::Write(texel) => {
            if image.access == ImageAccess::ReadOnly {
                return Err(format!(
                    "'{name}' writes to an image declared '__read_only'"
                ));
            }
            if image.dim == ImageDim::D3 && !ctx.image_3d_writes {
                return Err(format!(
                    "'{name}' on image3d_t needs the __opencl_c_3d_image_writes feature"
                ));
            }
            if texel == Texel::Half && !ctx.float16 {
                return Err(no_match());
            }
            let [_, coord, value] = args else {
                return Err(arity(&name, args.len(), 3, 3));
            };
            let value_ty = match (image.depth, texel) {
                (true, Texel::Float) => Type::FLOAT,
                (true, _) => return Err(no_match()),
                (false, t) => Type::Vector(t.scalar(), 4),
            };
            let c = coordinate(image, Scalar::Int);
            coordinate_fits(*coord, c).ok_or_else(&no_match)?;
            // The colour converts like an argument of a prototyped
            // function: scalars convert, vectors must match.
            let value_ok =
                *value == value_ty || (value.scalar().is_some() && value_ty.scalar().is_some());
            if !value_ok {
                return Err(no_match());
            }
            Ok(resolved(vec![image_arg(image), c, value_ty], Type::Void))
        }
        ImageBuiltin::Query(q) => {
            if args.len() != 1 {
                return Err(arity(&name, args.len(), 1, 1));
            }
            use ImageDim::*;
            let dim = image.dim;
            let result = match q {
                ImageQuery::Width | ImageQuery::ChannelDataType | ImageQuery::ChannelOrder => {
                    Type::INT
                }
                ImageQuery::Height if matches!(dim, D2 | D2Array | D3) => Type::INT,
                ImageQuery::Depth if dim == D3 => Type::INT,
                ImageQuery::ArraySize if matches!(dim, D1Array | D2Array) => {
                    Type::Scalar(ctx.size_type)
                }
                ImageQuery::Dim if matches!(dim, D2 | D2Array) => Type::Vector(Scalar::Int, 2),
                ImageQuery::Dim if dim == D3 => Type::Vector(Scalar::Int, 4),
                _ => return Err(no_match()),
            };
            Ok(resolved(vec![image_arg(image)], result))
        }
    }
}

/// The image parameter: exactly the argument's type.
fn image_arg(image: ImageType) -> Type {
    Type::Opaque(Opaque::Image(image))
}

/// Scalars convert to a scalar coordinate; vectors must be the
/// coordinate's type.
fn coordinate_fits(given: Type, wanted: Type) -> Option<()> {
    let fits = given == wanted
        || (given.scalar().is_some_and(|s| s != Scalar::Bool) && wanted.scalar().is_some());
    fits.then_some(())
}

fn arity(name: &str, have: usize, fewest: usize, most: usize) -> String {
    let (which, expected) = if have < fewest {
        ("few", fewest)
    } else {
        ("many", most)
    };
    format!("too {which} arguments to function call '{name}', expected {expected}, have {have}")
}
