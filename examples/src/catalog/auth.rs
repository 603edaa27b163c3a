//! Bearer-token guards: editors may write, only admins may delete
//! (spec, "Authentication"; issue "The catalog service", routes).

use std::sync::Arc;

use actix_web::HttpRequest;
use problem_core::UnauthorizedException;
use problem_core::routing::{Guard, GuardFuture};
use subtle::ConstantTimeEq;

/// The `WWW-Authenticate` challenge of every 401.
pub const CHALLENGE: &str = "Bearer realm=\"catalog\"";

/// Who a token belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// May create, upload covers and delete.
    Admin,
    /// May create and upload covers.
    Editor,
}

/// The two bearer tokens.
#[derive(Clone)]
pub struct Tokens {
    admin: Arc<str>,
    editor: Arc<str>,
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tokens(***)")
    }
}

fn unauthorized() -> actix_web::Error {
    UnauthorizedException::new()
        .with_header(("WWW-Authenticate", CHALLENGE))
        .into()
}

impl Tokens {
    /// The admin and editor tokens.
    pub fn new(admin: &str, editor: &str) -> Self {
        Self {
            admin: admin.into(),
            editor: editor.into(),
        }
    }

    /// The role of the request's bearer token; 401 with the challenge when
    /// the token is missing, malformed or unknown, or when the request
    /// carries more than one `Authorization` line (a singleton field, RFC
    /// 9110 §11.6.2: which one the client meant is not known). Compared in
    /// constant time.
    ///
    /// # Errors
    /// An `UnauthorizedException` with `WWW-Authenticate: Bearer realm="catalog"`.
    pub fn role(&self, req: &HttpRequest) -> Result<Role, actix_web::Error> {
        let mut lines = req.headers().get_all("authorization");
        let (Some(line), None) = (lines.next(), lines.next()) else {
            return Err(unauthorized());
        };
        let token = Some(line)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| {
                let (scheme, token) = v.trim().split_once(' ')?;
                scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
            })
            .ok_or_else(unauthorized)?;
        if bool::from(token.as_bytes().ct_eq(self.admin.as_bytes())) {
            Ok(Role::Admin)
        } else if bool::from(token.as_bytes().ct_eq(self.editor.as_bytes())) {
            Ok(Role::Editor)
        } else {
            Err(unauthorized())
        }
    }

    /// A guard passing editors and admins.
    pub fn editor_or_admin(&self) -> impl Guard {
        RoleGuard {
            tokens: self.clone(),
            admin_only: false,
        }
    }

    /// A guard passing admins only; an editor gets 403 with no detail.
    pub fn admin_only(&self) -> impl Guard {
        RoleGuard {
            tokens: self.clone(),
            admin_only: true,
        }
    }
}

struct RoleGuard {
    tokens: Tokens,
    admin_only: bool,
}

impl Guard for RoleGuard {
    fn check(&self, req: HttpRequest) -> GuardFuture {
        let result = self
            .tokens
            .role(&req)
            .map(|role| !self.admin_only || role == Role::Admin);
        Box::pin(std::future::ready(result))
    }
}
