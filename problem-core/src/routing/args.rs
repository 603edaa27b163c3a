//! [`HandlerArgs`]: what a route's handler extracts, known when the route
//! is added, so that a handler needing setup the application lacks is an
//! error at build, not a 500 at run time.

use std::any::TypeId;

use crate::version::ApiVersion;

/// The argument tuple of an actix-web handler (`()`, `(A,)`, ... up to 16
/// extractors, as actix-web's `Handler` accepts), asked whether one of its
/// extractors is a given type.
///
/// [`Routes`](super::Routes) uses it to find handlers that take the
/// [`ApiVersion`] extractor: on an application without versioning, or on a
/// version-neutral path, such a handler could only answer 500, so
/// `ProblemAppBuilder::build` refuses it with an
/// [`HttpConfigError`](crate::HttpConfigError) naming the route.
/// `Option<ApiVersion>` is another type, served without a version.
///
/// Implemented for every tuple of `'static` types up to 16; there is no
/// need to implement it.
///
/// ```
/// use actix_web::web;
/// use problem_core::routing::HandlerArgs;
/// use problem_core::version::ApiVersion;
///
/// assert!(<(web::Path<u32>, ApiVersion)>::takes::<ApiVersion>());
/// assert!(!<(Option<ApiVersion>,)>::takes::<ApiVersion>());
/// assert!(!<()>::takes::<ApiVersion>());
/// ```
pub trait HandlerArgs: 'static {
    /// Whether one of the extractors is `T` itself.
    fn takes<T: 'static>() -> bool;
}

macro_rules! handler_args {
    ($($t:ident)*) => {
        impl<$($t: 'static),*> HandlerArgs for ($($t,)*) {
            fn takes<T: 'static>() -> bool {
                false $(|| TypeId::of::<$t>() == TypeId::of::<T>())*
            }
        }
    };
}

handler_args!();
handler_args!(A);
handler_args!(A B);
handler_args!(A B C);
handler_args!(A B C D);
handler_args!(A B C D E);
handler_args!(A B C D E F);
handler_args!(A B C D E F G);
handler_args!(A B C D E F G H);
handler_args!(A B C D E F G H I);
handler_args!(A B C D E F G H I J);
handler_args!(A B C D E F G H I J K);
handler_args!(A B C D E F G H I J K L);
handler_args!(A B C D E F G H I J K L M);
handler_args!(A B C D E F G H I J K L M N);
handler_args!(A B C D E F G H I J K L M N O);
handler_args!(A B C D E F G H I J K L M N O P);

/// Whether a handler with arguments `Args` takes the [`ApiVersion`]
/// extractor (which fails without a resolved version).
pub(crate) fn takes_api_version<Args: HandlerArgs>() -> bool {
    Args::takes::<ApiVersion>()
}
