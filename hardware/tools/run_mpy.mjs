#!/usr/bin/env node
// Run Python on real MicroPython (the WebAssembly port, 1.27) under Node.
//
// The host tests use it to run the firmware's pure modules (codec, detector, calibration)
// on the interpreter the board runs and compare the results with CPython's.
//
//   node run_mpy.mjs [FILE.py ...] -c "import detector; print(...)"
//       copies each FILE into MicroPython's root as its base name, then runs the code.
//   echo '{"files": {"detector.py": "..."}, "code": "..."}' | node run_mpy.mjs
//       the same from a JSON job on standard input (what the tests send).
//
// Prints the program's standard output. Exit status: 0 when the code ran, 1 when it
// raised (the MicroPython traceback goes to standard error), 2 on a usage error.

import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

function usage(msg) {
    process.stderr.write(`run_mpy: ${msg}\nusage: node run_mpy.mjs [FILE.py ...] -c CODE\n`);
    process.exit(2);
}

async function readJob() {
    const args = process.argv.slice(2);
    if (args.length === 0) {
        const chunks = [];
        for await (const c of process.stdin) chunks.push(c);
        const job = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        if (typeof job.code !== "string") usage("the JSON job needs a \"code\" string");
        return { files: job.files || {}, code: job.code };
    }
    const files = {};
    let code = null;
    for (let i = 0; i < args.length; i++) {
        if (args[i] === "-c") {
            code = args[++i];
            if (code === undefined) usage("-c needs code");
        } else {
            files[basename(args[i])] = readFileSync(args[i], "utf8");
        }
    }
    if (code === null) usage("no code given");
    return { files, code };
}

const job = await readJob();
let out = "";
let err = "";
const mp = await loadMicroPython({
    stdout: (line) => { out += line + "\n"; },
    stderr: (line) => { err += line + "\n"; },
    heapsize: 8 * 1024 * 1024,
});
for (const [name, text] of Object.entries(job.files)) {
    mp.FS.writeFile("/" + name.replace(/^\/+/, ""), text);
}
let status = 0;
try {
    mp.runPython("import sys\nif '/' not in sys.path:\n    sys.path.insert(0, '/')\n");
    mp.runPython(job.code);
} catch (e) {
    err += String(e && e.message ? e.message : e) + "\n";
    status = 1;
}
process.stdout.write(out);
if (err) process.stderr.write(err);
process.exitCode = status;
