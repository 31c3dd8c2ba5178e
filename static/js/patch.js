// A state sent as what changed since the one before (core/jsonpatch.py): ["s", path, value] sets,
// ["d", path] deletes an object's key, ["a", path, items] appends to an array, ["t", path, k] takes
// the first k items off an array (a window of the last events that slid on), ["c", path, source, k]
// sets a copy of the last k items of the array at source (a move's events sent once); a path of keys and
// indices, [] the whole document. Applied in place, as core/jsonpatch.apply does: the document
// after the patch is returned (a new one when the whole was set).
export function applyPatch(doc, ops) {
  let out = doc;
  const at = (path) => path.reduce((node, key) => node[key], out);
  for (const op of ops) {
    let [kind, path, value] = op;
    if (kind === "c") [kind, value] = ["s", structuredClone(at(op[2]).slice(-op[3]))];
    if (!path.length) {
      if (kind === "s") out = value;
      else if (kind === "a") out.push(...value);
      else if (kind === "t") out.splice(0, value);
      continue;
    }
    const parent = at(path.slice(0, -1));
    const last = path[path.length - 1];
    if (kind === "s") parent[last] = value;
    else if (kind === "d") delete parent[last];
    else if (kind === "a") parent[last].push(...value);
    else if (kind === "t") parent[last].splice(0, value);
    else throw new Error(`unknown patch operation ${kind}`);
  }
  return out;
}
