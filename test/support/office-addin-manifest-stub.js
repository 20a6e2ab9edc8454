// office-addin-mock imports office-addin-manifest, which needs the internet to validate; tests never call it.
module.exports = {};
