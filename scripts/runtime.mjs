// Printed first by `npm test`, so every run shows which Node it used (the pinned `node` devDependency).
const major = Number(process.versions.node.split('.')[0]);
console.log(`runtime: Node ${process.version} (${process.execPath})`);
if (major !== 24) {
  console.error(
    `Manaboard runs on Node 24 LTS; this is ${process.version}. Run through npm scripts (npm test).`,
  );
  process.exit(1);
}
