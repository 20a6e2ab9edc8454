/**
 * Builds the Excel add-in into dist/addin/: taskpane.html (the shared-runtime page) loading
 * runtime.js + functions.js + taskpane.js and its stylesheet taskpane.css, functions.json (custom
 * function metadata) and the icons.
 * One runtime chunk lets the functions and the task pane share module instances (one client, one cache).
 */
const path = require("path");
const CustomFunctionsMetadataPlugin = require("custom-functions-metadata-plugin");
const HtmlWebpackPlugin = require("html-webpack-plugin");
const CopyWebpackPlugin = require("copy-webpack-plugin");
const webpack = require("webpack");
const fs = require("fs");
const { parse } = require("csv-parse/sync");

/**
 * LOCODE → [lng, lat] of the ports in data/ports-overlay.csv (the service's own port points), for
 * the task pane's route map: the API's legs carry only LOCODEs and the interface has no place lookup.
 */
function portCoordinates() {
  const rows = parse(fs.readFileSync(path.resolve(__dirname, "data/ports-overlay.csv")), {
    columns: true,
    skip_empty_lines: true,
  });
  const table = {};
  for (const r of rows) table[r.locode] = [Number(r.lng), Number(r.lat)];
  return table;
}

/**
 * Leaves help links to the server: it writes each function's helpUrl as it serves functions.json
 * (src/service/addin-host.ts), since only it knows its public origin. Any the JSDoc carries are
 * dropped here, so the build has none for the server to overwrite.
 */
class HelpUrlsPlugin {
  apply(compiler) {
    // The main compilation only: HtmlWebpackPlugin's child compilation merges its own (unchanged)
    // copy of functions.json into it first, and the two must agree then.
    compiler.hooks.thisCompilation.tap("HelpUrlsPlugin", (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: "HelpUrlsPlugin", stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONS },
        () => {
          const asset = compilation.getAsset("functions.json");
          if (!asset) return;
          const meta = JSON.parse(asset.source.source().toString());
          for (const f of meta.functions) {
            // Written once, by the server.
            delete f.helpUrl;
          }
          compilation.updateAsset(
            "functions.json",
            new webpack.sources.RawSource(JSON.stringify(meta, null, 2))
          );
        }
      );
    });
  }
}

/**
 * Writes dist/addin/.built (the stamp scripts/build-if-stale.js compares with the sources) after a
 * build without errors, dated when the build started, so `npm run build:addin` counts as a build
 * for `npm start` too.
 */
class BuildStampPlugin {
  apply(compiler) {
    let started = new Date();
    compiler.hooks.compile.tap("BuildStampPlugin", () => (started = new Date()));
    compiler.hooks.done.tap("BuildStampPlugin", (stats) => {
      if (stats.hasErrors()) return;
      const stamp = path.join(compiler.outputPath, ".built");
      fs.writeFileSync(stamp, started.toISOString() + "\n");
      fs.utimesSync(stamp, started, started);
    });
  }
}

/**
 * Enum members named as users write them ("20DV", quoted in TypeScript because a name cannot start
 * with a digit) keep their name without the quotes in functions.json.
 */
class EnumNamesPlugin {
  apply(compiler) {
    // The main compilation only: HtmlWebpackPlugin's child compilation merges its own (unchanged)
    // copy of functions.json into it first, and the two must agree then.
    compiler.hooks.thisCompilation.tap("EnumNamesPlugin", (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: "EnumNamesPlugin", stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONS },
        () => {
          const asset = compilation.getAsset("functions.json");
          if (!asset) return;
          const meta = JSON.parse(asset.source.source().toString());
          for (const e of meta.enums ?? [])
            for (const v of e.values) v.name = String(v.name).replace(/^(["'])(.*)\1$/, "$2");
          compilation.updateAsset(
            "functions.json",
            new webpack.sources.RawSource(JSON.stringify(meta, null, 2))
          );
        }
      );
    });
  }
}

module.exports = (_env, argv) => ({
  mode: argv.mode || "production",
  devtool: "source-map",
  entry: {
    functions: "./src/functions/functions.ts",
    taskpane: "./src/taskpane/taskpane.ts",
  },
  output: {
    path: path.resolve(__dirname, "dist/addin"),
    filename: "[name].js",
    clean: true,
  },
  resolve: { extensions: [".ts", ".js"] },
  module: {
    rules: [
      {
        test: /\.ts$/,
        exclude: /node_modules/,
        use: {
          loader: "ts-loader",
          options: {
            // Type-check only what the bundle uses; ES modules so webpack can tree-shake.
            onlyCompileBundledFiles: true,
            compilerOptions: {
              module: "es2020",
              sourceMap: true,
              types: ["office-js", "office-runtime", "custom-functions-runtime"],
            },
          },
        },
      },
    ],
  },
  optimization: { runtimeChunk: "single" },
  performance: { hints: false },
  plugins: [
    new webpack.DefinePlugin({ __ROUTE_SHEETS_PORTS__: JSON.stringify(portCoordinates()) }),
    new CustomFunctionsMetadataPlugin({
      input: "./src/functions/functions.ts",
      output: "functions.json",
    }),
    new HelpUrlsPlugin(),
    new HtmlWebpackPlugin({
      filename: "taskpane.html",
      template: "./src/taskpane/taskpane.html",
      chunks: ["functions", "taskpane"],
    }),
    new CopyWebpackPlugin({
      patterns: [
        { from: "assets/*.png", to: "assets/[name][ext]" },
        // The pane's stylesheet, linked by taskpane.html (a file, so the CSP needs no inline style).
        { from: "src/taskpane/taskpane.css", to: "taskpane.css" },
      ],
    }),
    new EnumNamesPlugin(),
    new BuildStampPlugin(),
  ],
});
