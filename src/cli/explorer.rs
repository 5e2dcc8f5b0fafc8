//! The web explorer `nimrod serve` shows at `/`: one HTML page, one script
//! and one stylesheet, compiled into the binary (no build step, nothing
//! fetched from elsewhere). The page reads the same routes a program does
//! (`/standard`, `/standard/mainline`, `/api/GAME`).

use axum::http::header;
use axum::response::IntoResponse;

pub async fn index() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("explorer/index.html"),
    )
}

pub async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("explorer/explorer.js"),
    )
}

pub async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("explorer/explorer.css"),
    )
}
