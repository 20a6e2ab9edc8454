#!/usr/bin/env node
/**
 * `npm run validate`: Microsoft's manifest validation (office-addin-manifest), which sends the
 * manifest to Microsoft's validation service, so it needs the internet; offline it says so.
 */
const path = require("node:path");
const { validateManifest } = require("office-addin-manifest");

const file = path.resolve(process.argv[2] ?? path.join(__dirname, "..", "manifest.xml"));

validateManifest(file).then(
  (validation) => {
    const report = validation.report ?? {};
    for (const issue of [...(report.errors ?? []), ...(report.warnings ?? [])])
      console.log(`${issue.title}: ${issue.content}${issue.line ? ` (line ${issue.line})` : ""}`);
    console.log(validation.isValid ? `${file} is valid.` : `${file} is not valid.`);
    process.exitCode = validation.isValid ? 0 : 1;
  },
  (error) => {
    const message = String(error?.message ?? error);
    console.error(
      /validation service/i.test(message)
        ? `npm run validate needs the internet: office-addin-manifest sends the manifest to Microsoft's validation service, which could not be reached (${message.split("\n").pop()}).`
        : message
    );
    process.exitCode = 1;
  }
);
