//! API versioning (spec, "Versioning"; `DECISIONS.md`, "Versioning").
