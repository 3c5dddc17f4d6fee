"""Poll the Airbyte public API until every job of the given connections has finished.

Does what ELT-Bench's setup/check_job_status.py did for agents (Basic auth, GET
/api/public/v1/jobs?limit=100000, wait while any job is pending or running, then
print the connection ids of successful and failed jobs), with the standard library
only. `--by-connection` polls GET /jobs?connectionId=<id> per connection instead.
Connection ids come from --connection-id (repeatable) or a terraform.tfstate file.
"""

import argparse
import base64
import json
import sys
import time
import urllib.request


def get_json(url, headers):
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        if "application/json" not in response.headers.get("Content-Type", ""):
            raise SystemExit(f"unexpected content type from {url}")
        return json.loads(response.read().decode("utf-8"))


def connections_from_tfstate(path):
    with open(path, "r", encoding="utf-8") as f:
        state = json.load(f)
    return [
        r["instances"][0]["attributes"]["connection_id"]
        for r in state.get("resources", [])
        if r.get("type") == "airbyte_connection"
    ]


def fetch_jobs(server, headers, connection_ids, by_connection):
    base = f"http://{server}/api/public/v1/jobs"
    if not by_connection:
        return get_json(f"{base}?limit=100000", headers)["data"]
    jobs = []
    for connection_id in connection_ids:
        jobs.extend(get_json(f"{base}?connectionId={connection_id}&limit=100000", headers)["data"])
    return jobs


def wait_for_jobs(server, headers, connection_ids, by_connection, interval, timeout):
    deadline = time.time() + timeout
    while True:
        successful, failed, all_completed = [], [], True
        for job in fetch_jobs(server, headers, connection_ids, by_connection):
            if job["connectionId"] not in connection_ids:
                continue
            for key in ("jobId", "status", "jobType", "startTime"):
                if key not in job:
                    raise SystemExit(f"job without {key}: {job}")
            if job["status"] == "succeeded":
                if job["connectionId"] not in successful:
                    successful.append(job["connectionId"])
            elif job["status"] in ("failed", "cancelled"):
                if job["connectionId"] not in failed:
                    failed.append(job["connectionId"])
            else:
                all_completed = False
        if all_completed:
            return successful, failed
        if time.time() > deadline:
            raise SystemExit("timed out waiting for jobs")
        time.sleep(interval)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True, help="host:port of the Airbyte API")
    parser.add_argument("--username", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--connection-id", action="append", default=[])
    parser.add_argument("--tfstate")
    parser.add_argument("--by-connection", action="store_true")
    parser.add_argument("--interval", type=float, default=0.1)
    parser.add_argument("--timeout", type=float, default=30.0)
    args = parser.parse_args()
    connection_ids = list(args.connection_id)
    if args.tfstate:
        connection_ids.extend(connections_from_tfstate(args.tfstate))
    if not connection_ids:
        print("Connection not found")
        return 1
    token = base64.b64encode(f"{args.username}:{args.password}".encode("utf-8")).decode("utf-8")
    headers = {"Authorization": f"Basic {token}", "accept": "application/json"}
    successful, failed = wait_for_jobs(
        args.server, headers, connection_ids, args.by_connection, args.interval, args.timeout
    )
    print("The connection id of successful jobs are: ", successful)
    print("The connection id of failed jobs are: ", failed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
