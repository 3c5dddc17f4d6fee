"""Reads eltbench's MongoDB endpoint with pymongo and prints what it saw as JSON.

Usage: pymongo_reads.py URI DB COLL        the read checks (tests/pymongo_client.rs)
       pymongo_reads.py URI --auth-failure  one authenticated command, expecting failure
"""
import json
import sys

from pymongo import MongoClient, monitoring
from pymongo.errors import OperationFailure


class GetMoreCounter(monitoring.CommandListener):
    def __init__(self):
        self.get_mores = 0

    def started(self, event):
        if event.command_name == "getMore":
            self.get_mores += 1

    def succeeded(self, event):
        pass

    def failed(self, event):
        pass


def failure(err):
    return {"code": err.code, "codeName": err.details.get("codeName"), "errmsg": err.details.get("errmsg")}


def reads(uri, db_name, coll_name):
    counter = GetMoreCounter()
    client = MongoClient(uri, event_listeners=[counter], serverSelectionTimeoutMS=10000)
    db = client[db_name]
    coll = db[coll_name]
    out = {
        "ping": client.admin.command("ping")["ok"],
        "databases": client.list_database_names(),
        "collections": db.list_collection_names(),
        "count_all": coll.count_documents({}),
        "count_group2": coll.count_documents({"group": 2}),
        "estimated": coll.estimated_document_count(),
    }
    cursor = (
        coll.find({"group": {"$in": [1, 3]}, "price": {"$gte": 10.0}}, {"seq": 1, "name": 1, "_id": 0})
        .sort("price", -1)
        .skip(2)
        .limit(5)
    )
    out["find"] = list(cursor)
    seqs, types = [], {}
    for doc in coll.find({}, batch_size=100):
        seqs.append(doc["seq"])
        if doc["seq"] == 5:
            types = {k: type(v).__name__ for k, v in doc.items()}
            out["doc5"] = {k: (v.isoformat() if k == "created" else v) for k, v in doc.items() if k != "_id"}
    out["scan_seqs"] = seqs
    out["types"] = types
    out["get_mores"] = counter.get_mores
    pipeline = [
        {"$match": {"seq": {"$lt": 500}}},
        {"$group": {"_id": "$group", "total": {"$sum": "$seq"}, "n": {"$count": {}}}},
        {"$sort": {"_id": 1}},
    ]
    out["groups"] = list(coll.aggregate(pipeline))
    try:
        db.command("frobnicate")
        out["unknown"] = None
    except OperationFailure as err:
        out["unknown"] = failure(err)
    out["ping_after"] = client.admin.command("ping")["ok"]
    return out


def auth_failure(uri):
    client = MongoClient(uri, serverSelectionTimeoutMS=10000)
    try:
        client.list_database_names()
        return {"failure": None}
    except OperationFailure as err:
        return {"failure": failure(err)}


def main():
    if sys.argv[2] == "--auth-failure":
        result = auth_failure(sys.argv[1])
    else:
        result = reads(*sys.argv[1:4])
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
