#!/usr/bin/env python3
"""One load into DuckDB by one peer tool, for scripts/bench-el.

usage: bench_el_peers.py TOOL INPUT TARGET.duckdb [--file PATH] [--pg URL]
  TOOL  dlt | sling | duckdb | duckdb-v2 (DuckDB writing the Destinations V2 table
        eltbench writes: CSV columns as strings, the four _airbyte_ columns)
  INPUT postgres | csv | jsonl | parquet
Loads the input into table `bench.events` (sling, duckdb) or dataset `bench`,
table `events` (dlt) of TARGET, then prints one JSON line:
{"seconds": <load time, imports excluded>, "rows": <count(*) of the loaded table>}.
Run by the el_peers bench in target/bench-venv; never part of the test path.
"""
import json
import os
import subprocess
import sys
import time


def arg(name, default=None):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


def count(target, table):
    import duckdb
    con = duckdb.connect(target, read_only=True)
    try:
        return con.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    finally:
        con.close()


def pg_parts(url):
    from urllib.parse import urlparse
    u = urlparse(url)
    return u.hostname, u.port, u.username, u.password, u.path.lstrip("/")


def run_dlt(source, target, path, pg):
    import dlt
    import pyarrow.csv as pacsv
    import pyarrow.json as pajson
    import pyarrow.parquet as pq

    pipeline = dlt.pipeline(
        pipeline_name="bench_" + source,
        destination=dlt.destinations.duckdb(target),
        dataset_name="bench",
        pipelines_dir=os.path.join(os.path.dirname(target), "dlt_pipelines"),
    )
    started = time.perf_counter()
    if source == "postgres":
        from dlt.sources.sql_database import sql_table
        data = sql_table(
            credentials=pg.replace("postgresql://", "postgresql+psycopg2://"),
            table="events", schema="public", backend="pyarrow", chunk_size=100_000,
        )
    else:
        @dlt.resource(name="events", write_disposition="replace")
        def data():
            if source == "csv":
                reader = pacsv.open_csv(path, read_options=pacsv.ReadOptions(block_size=64 << 20))
                for batch in reader:
                    yield batch
            elif source == "jsonl":
                yield pajson.read_json(path)
            else:
                for batch in pq.ParquetFile(path).iter_batches(batch_size=100_000):
                    yield batch
    info = pipeline.run(data, table_name="events", write_disposition="replace")
    seconds = time.perf_counter() - started
    info.raise_on_failed_jobs()
    return seconds, count(target, "bench.events")


def run_sling(source, target, path, pg):
    env = dict(os.environ)
    env["SLING_DISABLE_TELEMETRY"] = "true"
    env["TGT_DUCK"] = "duckdb://" + target
    if os.environ.get("SLING_DUCKDB_HOME"):
        # the duckdb CLI finds the pinned extension wheels' files here (no downloads)
        env["HOME"] = os.environ["SLING_DUCKDB_HOME"]
    cmd = [env["SLING_BINARY"], "run", "--tgt-conn", "TGT_DUCK",
           "--tgt-object", "bench.events", "--mode", "full-refresh"]
    if source == "postgres":
        env["SRC_PG"] = pg + "?sslmode=disable"
        cmd += ["--src-conn", "SRC_PG", "--src-stream", "public.events"]
    else:
        cmd += ["--src-stream", "file://" + path]
        fmt = {"csv": "csv", "jsonl": "jsonlines", "parquet": "parquet"}[source]
        options = {"format": fmt}
        if source == "jsonl":
            options["flatten"] = True  # one column per key, as the other tools load it
        cmd += ["--src-options", json.dumps(options)]
    started = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"sling failed on {source}")
    return seconds, count(target, "bench.events")


def run_duckdb(source, target, path, pg, v2=False):
    import duckdb
    con = duckdb.connect(target)
    started = time.perf_counter()
    con.execute("CREATE SCHEMA IF NOT EXISTS bench")
    if source == "postgres":
        con.execute(f"LOAD '{os.environ['PG_SCANNER']}'")
        host, port, user, password, db = pg_parts(pg)
        con.execute(f"ATTACH 'host={host} port={port} user={user} password={password} dbname={db}' AS pg (TYPE postgres, READ_ONLY)")
        select = "SELECT * FROM pg.public.events"
    else:
        reader = {"csv": "read_csv", "jsonl": "read_json", "parquet": "read_parquet"}[source]
        # Airbyte declares every CSV column a string
        options = ", all_varchar = true" if v2 and source == "csv" else ""
        select = f"SELECT * FROM {reader}('{path}'{options})"
    if v2:
        # the Destinations V2 table eltbench must write: the same rows, as Airbyte types
        # them, behind _airbyte_raw_id / _extracted_at / _meta / _generation_id
        select = (
            "SELECT uuid() AS _airbyte_raw_id, now() AS _airbyte_extracted_at, "
            "CAST('{\"sync_id\":1,\"changes\":[]}' AS JSON) AS _airbyte_meta, "
            f"CAST(1 AS BIGINT) AS _airbyte_generation_id, * FROM ({select})"
        )
    con.execute(f"CREATE OR REPLACE TABLE bench.events AS {select}")
    con.close()
    seconds = time.perf_counter() - started
    return seconds, count(target, "bench.events")


def main():
    tool, source, target = sys.argv[1:4]
    runner = {
        "dlt": run_dlt,
        "sling": run_sling,
        "duckdb": run_duckdb,
        "duckdb-v2": lambda *a: run_duckdb(*a, v2=True),
    }[tool]
    seconds, rows = runner(source, target, arg("--file"), arg("--pg"))
    print(json.dumps({"seconds": seconds, "rows": rows}))


if __name__ == "__main__":
    main()
