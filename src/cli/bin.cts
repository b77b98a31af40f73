#!/usr/bin/env node
/**
 * The installed `mcpkit` command: sizes libuv's thread pool, then runs main.js. Every file
 * call of a served folder is asynchronous, and each one in flight holds a pool thread: with
 * the default 4, four reads of hung files (a network mount that stopped answering) would keep
 * every other file call waiting. libuv reads UV_THREADPOOL_SIZE once, when its pool starts,
 * and Node 20 loads ES modules through that pool: so this entry is CommonJS (loaded without
 * it), and sets the size before the first module is imported. A size the user set is kept.
 */
// 32: eight hung reads (each holds one thread at a time) leave 24 for everything else; an
// idle thread costs a stack of address space and no CPU.
process.env['UV_THREADPOOL_SIZE'] ??= '32';
void import('./main.js');
