// SvelteKit's defaults; nothing about mg-core (an adapter only matters to a build).
export default { kit: {} };
