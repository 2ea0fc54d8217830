import { chromium } from "playwright-core";
const b = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
for (const theme of ["void", "cosmic"]) {
  const p = await b.newPage({ viewport: { width: 375, height: 800 } });
  await p.addInitScript((v) => localStorage.setItem("theme", v), theme);
  await p.goto("http://127.0.0.1:3472/bench?size=quick");
  await p.getByRole("button", { name: "Run" }).click();
  await p.getByText("Done").waitFor({ timeout: 60000 });
  await p.screenshot({ path: `/tmp/${theme}-375-top.png` });
  await p.locator(".bench-chart").screenshot({ path: `/tmp/${theme}-375-chart.png` });
  await p.locator(".bench__table-wrap").screenshot({ path: `/tmp/${theme}-375-table.png` });
}
await b.close();
