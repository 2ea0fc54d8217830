// The types of chromium.mjs (a plain ES module, so Node scripts outside the app import it as it is).
export declare const defaultChromiumPath: string;
export declare const chromiumPath: string;
export declare const chromiumArgs: string[];
export declare const chromiumLaunchOptions: { executablePath: string; args: string[] };
export declare const headlessShellPath: string;
export declare const testChromiumLaunchOptions: { executablePath: string; args: string[] };
