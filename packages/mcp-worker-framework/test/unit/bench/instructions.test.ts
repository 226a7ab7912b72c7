/**
 * `node bench/instructions.mjs bare shipped --startup --by-phase` says where a cold start's
 * instructions go by the workerd function that spent them (bench/instructions.mjs, PHASES). The
 * names are callgrind's, as it prints them for workerd's own symbols.
 */
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain JavaScript module of the benchmark
import { PHASES, phaseOf } from '../../../bench/instructions.mjs';

describe('the phases of a cold start', () => {
  it.each([
    ['???:v8::internal::Scanner::Next() [/x/workerd]', 'parse'],
    ['???:v8::internal::PreParser::PreParseFunction(int, v8::internal::AstRawString const*)', 'parse'],
    [
      '???:v8::internal::ExpressionScope<v8::internal::ParserTypes<v8::internal::PreParser> >::NewVariable(v8::internal::AstRawString const*, int)',
      'parse',
    ],
    ['???:unsigned int v8::internal::StringHasher::HashSequentialString<unsigned char>(unsigned char const*)', 'parse'],
    ['???:v8::internal::interpreter::BytecodeGenerator::GenerateBytecodeBody()', 'bytecode'],
    ['???:v8::internal::regexp::RegExpImpl::Compile(v8::internal::Isolate*)', 'regular expressions'],
    ['???:Builtins_RegExpPrototypeTest [/x/workerd]', 'regular expressions'],
    ['???:v8::internal::Scavenger::ScavengePage(v8::internal::MutablePageMetadata*)', 'garbage collection'],
    ['???:Builtins_LdarHandler [/x/workerd]', 'JavaScript running'],
    [
      '???:v8::internal::JSObject::MigrateToMap(v8::internal::Isolate*)',
      'V8, other (objects, maps, functions, strings)',
    ],
    [
      './string/../sysdeps/x86_64/multiarch/memset-vec-unaligned-erms.S:__memset_avx2_unaligned_erms',
      'malloc, memset, memcpy',
    ],
    ['???:tcmalloc::tcmalloc_internal::FreeSmallSlow(void*)', 'malloc, memset, memcpy'],
    ['???:capnp::_::PointerReader::getStruct(capnp::word const*) const [/x/workerd]', 'workerd, its config, libc'],
    ['./elf/../sysdeps/x86_64/dl-machine.h:_dl_relocate_object', 'workerd, its config, libc'],
  ])('%s is %s', (name, phase) => {
    expect(phaseOf(name)).toBe(phase);
  });

  it('names every function a phase: the last one takes what no other does', () => {
    const [, last] = PHASES[PHASES.length - 1];
    expect(last.test('anything at all')).toBe(true);
  });
});
