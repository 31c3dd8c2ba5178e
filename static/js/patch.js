// A state sent as what changed since the one before (core/jsonpatch.py): ["s", path, value] sets,
// ["d", path] deletes an object's key, ["a", path, items] appends to an array; a path of keys and
// indices, [] the whole document. Applied in place, as core/jsonpatch.apply does: the document
// after the patch is returned (a new one when the whole was set).
export function applyPatch(doc, ops) {
  let out = doc;
  for (const [kind, path, value] of ops) {
    if (!path.length) {
      if (kind === "s") out = value;
      else if (kind === "a") out.push(...value);
      continue;
    }
    let parent = out;
    for (const key of path.slice(0, -1)) parent = parent[key];
    const last = path[path.length - 1];
    if (kind === "s") parent[last] = value;
    else if (kind === "d") delete parent[last];
    else if (kind === "a") parent[last].push(...value);
    else throw new Error(`unknown patch operation ${kind}`);
  }
  return out;
}
