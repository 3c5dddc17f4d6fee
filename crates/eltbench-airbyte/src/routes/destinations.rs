//! `/destinations` and `/destinations/{id}`: destinations, served by the shared actor handlers.
//!
//! Only the wiring lives here; behaviour is in `actors.rs` so both kinds stay alike.

use axum::Router;
use axum::routing::get;

use super::AppState;
use super::actors;
use crate::definitions::ActorKind;

const KIND: ActorKind = ActorKind::Destination;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route(
            "/destinations",
            get(|state, request| actors::list(KIND, state, request))
                .post(|state, body| actors::create(KIND, state, body)),
        )
        .route(
            "/destinations/{id}",
            get(|state, id| actors::get_one(KIND, state, id))
                .patch(|state, id, body| actors::update(KIND, false, state, id, body))
                .put(|state, id, body| actors::update(KIND, true, state, id, body))
                .delete(|state, id| actors::delete(KIND, state, id)),
        )
}
