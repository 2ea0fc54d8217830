// Only where the page is served from (a folder of the matrix's server, not the site's root); mg-core
// needs nothing here.
export default { output: { assetPrefix: "./" } };
