//! SRDEL, SRDT, pass@k and pass^k (placeholder; being built).
