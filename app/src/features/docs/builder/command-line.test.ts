// @vitest-environment node
import dmtCatalogue from "virtual:mg-cli-catalogue/dmt";
import lsdCatalogue from "virtual:mg-cli-catalogue/lsd";
import mgCatalogue from "virtual:mg-cli-catalogue/mg";
import type { CliCatalogue, CliCommand } from "@common/catalogue-types";
import { describe, expect, it } from "vitest";
import { type BuilderValues, buildCommand, initialValues, shellQuote } from "./command-line";

function command(catalogue: CliCatalogue, id: string): CliCommand {
  const found = catalogue.commands.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no command ${id} in the catalogue`);
  return found;
}

function build(catalogue: CliCatalogue, id: string, values: BuilderValues) {
  const picked = command(catalogue, id);
  const tool = catalogue.tools.find((candidate) => candidate.id === picked.tool);
  return buildCommand(tool?.invocation ?? "", picked, { ...initialValues(picked), ...values });
}

const blastoff = (values: BuilderValues) => build(dmtCatalogue, "dmt-blastoff", values);

describe("shellQuote", () => {
  it("leaves plain words alone", () => {
    for (const word of ["my-app", "example.com", "t3.small", "ops@example.com", "feature/x_1"]) {
      expect(shellQuote(word)).toBe(word);
    }
  });

  it("single-quotes spaces and shell metacharacters", () => {
    expect(shellQuote("my app")).toBe("'my app'");
    expect(shellQuote("a;rm -rf ~")).toBe("'a;rm -rf ~'");
    expect(shellQuote("$HOME")).toBe("'$HOME'");
    expect(shellQuote("`id`")).toBe("'`id`'");
    expect(shellQuote("a*b")).toBe("'a*b'");
    expect(shellQuote('say "hi"')).toBe("'say \"hi\"'");
    expect(shellQuote("")).toBe("''");
  });

  it("writes an embedded single quote as '\\''", () => {
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote("Bob's app v2")).toBe("'Bob'\\''s app v2'");
  });
});

describe("buildCommand", () => {
  it("assembles blastoff with a domain and a non-default instance size", () => {
    const result = blastoff({
      "arg:name": "my-app",
      "--domain": "example.com",
      "--instance-size": "t3.small",
    });
    expect(result).toMatchObject({
      ok: true,
      line: "mg dmt blastoff my-app --domain example.com --instance-size t3.small",
    });
  });

  it("leaves out an enumeration at its default and switches that are off", () => {
    expect(blastoff({ "--instance-size": "t2.micro", "--r53": false })).toMatchObject({
      ok: true,
      line: "mg dmt blastoff",
    });
    expect(blastoff({ "--no-ssl": true, "--r53": true })).toMatchObject({
      ok: true,
      line: "mg dmt blastoff --r53 --no-ssl",
    });
  });

  it("quotes a value with a space and a single quote", () => {
    expect(blastoff({ "arg:name": "shop", "--branch": "Bob's fix" })).toMatchObject({
      ok: true,
      line: "mg dmt blastoff shop --branch 'Bob'\\''s fix'",
    });
  });

  it("rejects a value containing a line break", () => {
    const result = blastoff({ "--branch": "main\nrm -rf /" });
    expect(result).toEqual({
      ok: false,
      errors: { "--branch": "Must be a single line: remove the line break." },
    });
  });

  it("rejects a missing required argument", () => {
    expect(build(dmtCatalogue, "dmt-show", {})).toEqual({
      ok: false,
      errors: { "arg:name": "Required: fill in <name>." },
    });
    expect(build(dmtCatalogue, "dmt-show", { "arg:name": "shop" })).toMatchObject({
      ok: true,
      line: "mg dmt show shop",
    });
  });

  it("checks typed values: domain, e-mail, port, enumeration", () => {
    expect(blastoff({ "--domain": "https://example.com" })).toMatchObject({
      ok: false,
      errors: { "--domain": expect.stringMatching(/Leave out the scheme/) },
    });
    expect(blastoff({ "--domain": "example.com/app" })).toMatchObject({
      errors: { "--domain": "A domain has no path: write app.example.com." },
    });
    expect(blastoff({ "--domain": "localhost" })).toMatchObject({ ok: false });
    expect(blastoff({ "--email": "ops at example.com" })).toMatchObject({ ok: false });
    expect(blastoff({ "--instance-size": "m5.large" })).toMatchObject({
      errors: { "--instance-size": expect.stringMatching(/^Choose one of t2.micro, /) },
    });
    const db = (port: string) =>
      build(dmtCatalogue, "dmt-db", { "arg:name": "shop", "--local-port": port });
    expect(db("15432")).toMatchObject({ ok: true, line: "mg dmt db shop --local-port 15432" });
    for (const port of ["0", "65536", "80a", "-1"]) expect(db(port)).toMatchObject({ ok: false });
  });

  it("rejects values the CLI would read as options", () => {
    expect(build(dmtCatalogue, "dmt-ssh", { "arg:name": "--all" })).toMatchObject({
      errors: { "arg:name": expect.stringMatching(/read it as an option/) },
    });
  });

  it("needs ssl's --email and init's --dream", () => {
    expect(build(dmtCatalogue, "dmt-ssl", { "arg:name": "shop" })).toMatchObject({
      errors: { "--email": "Required: ssl needs --email." },
    });
    expect(build(mgCatalogue, "mg-init", {})).toMatchObject({ ok: true, line: "mg init --dream" });
    expect(build(mgCatalogue, "mg-init", { "--dream": false })).toMatchObject({ ok: false });
  });

  it("enforces nuke's name-or---all and --non-interactive-needs---all", () => {
    expect(build(dmtCatalogue, "dmt-nuke", {})).toMatchObject({
      errors: { "arg:name": "Give <name> or --all." },
    });
    expect(build(dmtCatalogue, "dmt-nuke", { "arg:name": "shop", "--all": true })).toMatchObject({
      errors: { "arg:name": "Give <name> or --all, not both.", "--all": expect.any(String) },
    });
    expect(
      build(dmtCatalogue, "dmt-nuke", { "arg:name": "shop", "--non-interactive": true }),
    ).toMatchObject({
      errors: { "--non-interactive": "--non-interactive only works together with --all." },
    });
    expect(
      build(dmtCatalogue, "dmt-nuke", { "--all": true, "--non-interactive": true }),
    ).toMatchObject({ ok: true, line: "mg dmt nuke --all --non-interactive" });
  });

  it("allows one option of an exclusive group", () => {
    expect(build(lsdCatalogue, "lsd-list", { "--health": true })).toMatchObject({
      ok: true,
      line: "mg lsd list --health",
    });
    expect(build(lsdCatalogue, "lsd-list", { "--health": true, "--deleting": true })).toEqual({
      ok: false,
      errors: {
        "--health": "Use only one of --health, --archived, --deleting.",
        "--deleting": "Use only one of --health, --archived, --deleting.",
      },
    });
  });

  it("offers only the allowed keys of mg config set and quotes the value", () => {
    expect(
      build(mgCatalogue, "mg-config-set", { "arg:key": "git.user", "arg:value": "x" }),
    ).toMatchObject({ errors: { "arg:key": "Choose one of git.username, git.token." } });
    expect(
      build(mgCatalogue, "mg-config-set", { "arg:key": "git.username", "arg:value": "Ann O'Neil" }),
    ).toMatchObject({ ok: true, line: "mg config set git.username 'Ann O'\\''Neil'" });
  });

  it("builds every catalogue example's command name for commands without inputs", () => {
    expect(build(dmtCatalogue, "dmt-awake-db", {})).toMatchObject({
      ok: true,
      line: "mg dmt awake db",
    });
    expect(build(mgCatalogue, "mg-install-completion", {})).toMatchObject({
      ok: true,
      line: "mg install-completion",
    });
  });
});
