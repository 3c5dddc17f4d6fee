// Reads eltbench's MongoDB endpoint with mongosh and prints what it saw as canonical
// Extended JSON (so BSON types are visible). Run by tests/mongosh_client.rs with the
// database and collection in ELTBENCH_DB / ELTBENCH_COLL.
const d = db.getSiblingDB(process.env.ELTBENCH_DB);
const coll = d.getCollection(process.env.ELTBENCH_COLL);
let seqs = [];
coll.find({}).batchSize(100).forEach((doc) => seqs.push(doc.seq));
let unknown = null;
try {
  d.runCommand({ frobnicate: 1 });
} catch (err) {
  unknown = { code: err.code, codeName: err.codeName, errmsg: err.errmsg };
}
const out = {
  databases: db.adminCommand({ listDatabases: 1 }).databases.map((x) => x.name),
  collections: d.getCollectionNames(),
  count_group2: coll.countDocuments({ group: 2 }),
  find: coll.find({ group: { $in: [1, 3] }, price: { $gte: 10.0 } }, { _id: 0, seq: 1, name: 1 })
    .sort({ price: -1 }).skip(2).limit(5).toArray(),
  seqs: seqs,
  doc5: coll.findOne({ seq: 5 }, { _id: 0 }),
  groups: coll.aggregate([
    { $match: { seq: { $lt: 500 } } },
    { $group: { _id: "$group", n: { $count: {} } } },
    { $sort: { _id: 1 } },
  ]).toArray(),
  unknown: unknown,
  ping_after: db.adminCommand({ ping: 1 }).ok,
};
print(EJSON.stringify(out, { relaxed: false }));
