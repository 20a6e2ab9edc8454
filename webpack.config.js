/**
 * Builds the Excel add-in into dist/addin/: taskpane.html (the shared-runtime page) loading
 * runtime.js + functions.js + taskpane.js, functions.json (custom function metadata) and the icons.
 * One runtime chunk lets the functions and the task pane share module instances (one client, one cache).
 */
const path = require('path');
const CustomFunctionsMetadataPlugin = require('custom-functions-metadata-plugin');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const CopyWebpackPlugin = require('copy-webpack-plugin');

module.exports = (_env, argv) => ({
  mode: argv.mode || 'production',
  devtool: 'source-map',
  entry: {
    functions: './src/functions/functions.ts',
    taskpane: './src/taskpane/taskpane.ts',
  },
  output: {
    path: path.resolve(__dirname, 'dist/addin'),
    filename: '[name].js',
    clean: true,
  },
  resolve: { extensions: ['.ts', '.js'] },
  module: {
    rules: [
      {
        test: /\.ts$/,
        exclude: /node_modules/,
        use: {
          loader: 'ts-loader',
          options: {
            // Type-check only what the bundle uses; ES modules so webpack can tree-shake.
            onlyCompileBundledFiles: true,
            compilerOptions: { module: 'es2020', sourceMap: true, types: ['office-js', 'office-runtime', 'custom-functions-runtime'] },
          },
        },
      },
    ],
  },
  optimization: { runtimeChunk: 'single' },
  performance: { hints: false },
  plugins: [
    new CustomFunctionsMetadataPlugin({ input: './src/functions/functions.ts', output: 'functions.json' }),
    new HtmlWebpackPlugin({
      filename: 'taskpane.html',
      template: './src/taskpane/taskpane.html',
      chunks: ['functions', 'taskpane'],
    }),
    new CopyWebpackPlugin({ patterns: [{ from: 'assets/*.png', to: 'assets/[name][ext]' }] }),
  ],
});
