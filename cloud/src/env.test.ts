import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_URL, EnvError, loadDotEnvFile, loadEnv, parseDatabaseUrl, REPO_ROOT } from './env';

describe('loadEnv', () => {
  it('has defaults for everything but the payment gateway, the database in <repo>/data whatever the working directory', () => {
    const env = loadEnv({ PAYMENT_PROVIDER: 'sandbox' });
    expect(env).toMatchObject({
      port: 8080,
      logLevel: 'info',
      demo: false,
      publicUrl: 'http://localhost:8080',
    });
    expect(env.database).toEqual({
      dialect: 'sqlite',
      filename: path.join(REPO_ROOT, 'data', 'deposito.db'),
    });
    expect(DEFAULT_DATABASE_URL).toBe(`sqlite:${path.join(REPO_ROOT, 'data', 'deposito.db')}`);
  });

  it('reads each variable', () => {
    const env = loadEnv({
      PORT: '9000',
      DATABASE_URL: 'postgres://u@db:5432/deposito',
      PUBLIC_URL: 'https://book.example.com/',
      LOG_LEVEL: 'debug',
      DEMO: '1',
      DEMO_SITE_PORT: '21000',
    });
    expect(env).toMatchObject({
      port: 9000,
      demoSitePort: 21000,
      database: { dialect: 'postgres', connectionString: 'postgres://u@db:5432/deposito' },
      publicUrl: 'https://book.example.com',
      logLevel: 'debug',
      demo: true,
    });
  });

  it('takes no payments outside demo mode until a gateway is chosen', () => {
    expect(() => loadEnv({})).toThrow(/PAYMENT_PROVIDER is required outside demo mode/);
    expect(() => loadEnv({ DEMO: '0' })).toThrow(/PAYMENT_PROVIDER is required outside demo mode/);
    expect(loadEnv({ DEMO: '1' }).payment.provider).toBe('sandbox');
    expect(loadEnv({ PAYMENT_PROVIDER: 'sandbox' }).payment.provider).toBe('sandbox');
  });

  it('takes real payments only with a PUBLIC_URL the gateway can return visitors to and notify', () => {
    const axerve = { PAYMENT_PROVIDER: 'axerve', AXERVE_SHOP_LOGIN: 'GESPAY12345', AXERVE_API_KEY: 'key' };
    expect(() => loadEnv(axerve)).toThrow(/PUBLIC_URL is required when PAYMENT_PROVIDER=axerve/);
    expect(() => loadEnv({ ...axerve, PUBLIC_URL: '' })).toThrow(/PUBLIC_URL is required/);
    const env = loadEnv({ ...axerve, PUBLIC_URL: 'https://book.example.com' });
    expect([env.payment.provider, env.publicUrl]).toEqual(['axerve', 'https://book.example.com']);
  });

  it('refuses to start the cloud with the real gateway and no PUBLIC_URL, saying why', () => {
    const started = spawnSync(process.execPath, ['--import', 'tsx', 'cloud/src/main.ts'], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: 'sqlite::memory:',
        PORT: '0',
        PAYMENT_PROVIDER: 'axerve',
        AXERVE_SHOP_LOGIN: 'GESPAY12345',
        AXERVE_API_KEY: 'key',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain('PUBLIC_URL is required when PAYMENT_PROVIDER=axerve');
  });

  it('refuses to start the cloud outside demo mode without PAYMENT_PROVIDER, saying why', () => {
    const started = spawnSync(process.execPath, ['--import', 'tsx', 'cloud/src/main.ts'], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, DATABASE_URL: 'sqlite::memory:', PORT: '0', DEMO: '0' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain('PAYMENT_PROVIDER is required outside demo mode');
  });

  it('fails with every problem at once', () => {
    let error: unknown;
    try {
      loadEnv({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        DEMO: 'yes',
        PUBLIC_URL: 'not a url',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EnvError);
    const problems = (error as EnvError).problems.join('\n');
    for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'DEMO', 'PUBLIC_URL'])
      expect(problems).toContain(name);
  });

  it('reads numbers written as whole decimal numbers only, and says what it got otherwise', () => {
    const problemsOf = (source: Record<string, string>): string[] => {
      try {
        loadEnv({ DEMO: '1', ...source });
        return [];
      } catch (error) {
        return (error as EnvError).problems;
      }
    };
    expect(
      problemsOf({
        PORT: 'eighty',
        DEMO_SITE_PORT: ' ',
        DRAIN_MS: '1e3',
        LIMIT_HELD_LOCKERS: '0x10',
        PAYMENT_PROVIDER_TIMEOUT_MS: '2.5',
      }),
    ).toEqual([
      'PORT: a whole number from 0 to 65535, got "eighty"',
      'DEMO_SITE_PORT: a whole number from 1 to 65530, got " "',
      'DRAIN_MS: a whole number from 0 to 120000, got "1e3"',
      'PAYMENT_PROVIDER_TIMEOUT_MS: a whole number from 100 to 120000, got "2.5"',
      'LIMIT_HELD_LOCKERS: a whole number from 0 to 1000000, got "0x10"',
    ]);
    expect(problemsOf({ PORT: '70000' })).toEqual(['PORT: a whole number from 0 to 65535, got "70000"']);
    const env = loadEnv({ DEMO: '1', PORT: ' 9000 ', DRAIN_MS: '0', LIMIT_HELD_LOCKERS: '3' });
    expect([env.port, env.drainMs, env.limits.heldLockers]).toEqual([9000, 0, 3]);
  });
});

describe('parseDatabaseUrl', () => {
  it('resolves relative SQLite paths against the working directory', () => {
    expect(parseDatabaseUrl('sqlite:./data/x.db', '/srv/app')).toEqual({
      dialect: 'sqlite',
      filename: '/srv/app/data/x.db',
    });
    expect(parseDatabaseUrl('sqlite:/var/lib/x.db', '/srv/app')).toEqual({
      dialect: 'sqlite',
      filename: '/var/lib/x.db',
    });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ dialect: 'sqlite', filename: ':memory:' });
    expect(parseDatabaseUrl('postgresql://h/db')).toEqual({
      dialect: 'postgres',
      connectionString: 'postgresql://h/db',
    });
    expect(parseDatabaseUrl('sqlite:')).toBeNull();
    expect(parseDatabaseUrl('redis://h')).toBeNull();
  });
});

describe('loadDotEnvFile', () => {
  it('loads a .env file without overriding variables already set, and reports a missing file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deposito-env-'));
    const file = path.join(dir, '.env');
    writeFileSync(file, 'DEPOSITO_TEST_FROM_FILE=file\nDEPOSITO_TEST_ALREADY_SET=file\n');
    process.env.DEPOSITO_TEST_ALREADY_SET = 'environment';
    try {
      expect(loadDotEnvFile(file)).toBe(true);
      expect(process.env.DEPOSITO_TEST_FROM_FILE).toBe('file');
      expect(process.env.DEPOSITO_TEST_ALREADY_SET).toBe('environment');
      expect(loadDotEnvFile(path.join(dir, 'missing.env'))).toBe(false);
    } finally {
      delete process.env.DEPOSITO_TEST_FROM_FILE;
      delete process.env.DEPOSITO_TEST_ALREADY_SET;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
