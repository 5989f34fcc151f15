# SPDX-License-Identifier: Apache-2.0
# suite-man.cmake - writes benchrun-suite(5), the suite file format, from the
# suite's JSON Schema (schema/suite.schema.json), so the keys, their types,
# defaults and descriptions have one source. The page's frame (what a suite
# is, the example, the files) is here; the example is suites/reduction.yaml
# as shipped.
#
#   cmake -DSCHEMA=schema/suite.schema.json -DEXAMPLE=suites/reduction.yaml
#         -DVERSION=0.1.0 -DOUT=build/benchrun-suite.5 -P cmake/suite-man.cmake
#
# Without a schema file the KEYS section says where the keys are documented.
cmake_minimum_required(VERSION 3.24)

# Text for roff: backslashes escaped, `code` in bold, **x** in bold, no line
# starting with a control character.
function(br_roff out text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "\\*\\*([^*]+)\\*\\*" "\\\\fB\\1\\\\fR" text "${text}")
  string(REGEX REPLACE "`([^`]+)`" "\\\\fB\\1\\\\fR" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The JSON value at the path (a list of keys), or "" when absent.
function(br_json out)
  string(JSON v ERROR_VARIABLE err GET "${schema}" ${ARGN})
  if(err)
    set(v "")
  endif()
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

# The schema at path with a "$ref": "#/$defs/X" followed once.
function(br_resolve out_path)
  br_json(ref ${ARGN} "$ref")
  if(ref MATCHES "^#/(.+)$")
    string(REPLACE "/" ";" p "${CMAKE_MATCH_1}")
    set(${out_path} "${p}" PARENT_SCOPE)
  else()
    set(${out_path} "${ARGN}" PARENT_SCOPE)
  endif()
endfunction()

# A short type for the schema at path: "string", "integer or string",
# "one of: flush, warm", a $ref's definition name.
function(br_type out)
  br_json(enum ${ARGN} enum)
  if(enum)
    string(JSON n LENGTH "${enum}")
    set(vals "")
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON v GET "${enum}" ${i})
      list(APPEND vals "${v}")
    endforeach()
    list(JOIN vals ", " vals)
    set(${out} "one of: ${vals}" PARENT_SCOPE)
    return()
  endif()
  br_json(ref ${ARGN} "$ref")
  if(ref MATCHES "/([^/]+)$")
    # A definition's name: "sourcePath" -> "source path".
    string(REGEX REPLACE "([a-z])([A-Z])" "\\1 \\2" t "${CMAKE_MATCH_1}")
    string(TOLOWER "${t}" t)
    string(REPLACE "_" " " t "${t}")
    set(${out} "${t}" PARENT_SCOPE)
    return()
  endif()
  br_json(t ${ARGN} type)
  if(t MATCHES "^\\[")
    string(JSON n LENGTH "${t}")
    set(ts "")
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON v GET "${t}" ${i})
      list(APPEND ts "${v}")
    endforeach()
    list(JOIN ts " or " t)
  endif()
  if(NOT t)
    foreach(alt oneOf anyOf allOf)
      set(sep " or ")
      if(alt STREQUAL "allOf")
        set(sep " and ")
      endif()
      br_json(alts ${ARGN} ${alt})
      if(alts)
        string(JSON n LENGTH "${alts}")
        set(ts "")
        math(EXPR last "${n} - 1")
        foreach(i RANGE ${last})
          br_type(a ${ARGN} ${alt} ${i})
          if(a)
            list(APPEND ts "${a}")
          endif()
        endforeach()
        list(REMOVE_DUPLICATES ts)
        list(JOIN ts "${sep}" t)
        break()
      endif()
    endforeach()
  endif()
  if(t STREQUAL "array")
    br_type(it ${ARGN} items)
    if(it)
      set(t "list of ${it}")
    endif()
  endif()
  set(${out} "${t}" PARENT_SCOPE)
endfunction()

# One .TP entry per property of the object schema at path; nested objects
# with properties of their own are listed indented under their key.
function(br_keys out)
  br_json(props ${ARGN} properties)
  br_json(required ${ARGN} required)
  set(text "")
  if(NOT props)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  string(JSON n LENGTH "${props}")
  if(n EQUAL 0)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON key MEMBER "${props}" ${i})
    set(p ${ARGN} properties ${key})
    br_resolve(rp ${p})
    br_type(type ${p})
    br_json(desc ${p} description)
    if(NOT desc)
      br_json(desc ${rp} description)
    endif()
    br_json(def ${p} default)
    string(JSON deft ERROR_VARIABLE err TYPE "${schema}" ${p} default)
    if(deft STREQUAL "BOOLEAN")
      if(def MATCHES "ON")
        set(def true)
      else()
        set(def false)
      endif()
    endif()
    set(head "\\fB${key}\\fR")
    set(notes "")
    if(type)
      list(APPEND notes "${type}")
    endif()
    if(required MATCHES "\"${key}\"")
      list(APPEND notes "required")
    endif()
    if(NOT def STREQUAL "" AND NOT desc MATCHES "Default")
      list(APPEND notes "default ${def}")
    endif()
    if(notes)
      list(JOIN notes "; " notes)
      br_roff(notes "${notes}")
      string(APPEND head " (${notes})")
    endif()
    br_roff(desc "${desc}")
    string(APPEND text ".TP\n${head}\n${desc}\n")
    br_keys(sub ${rp})
    if(sub)
      string(APPEND text ".RS\n${sub}.RE\n")
    endif()
  endforeach()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

set(keys "")
if(SCHEMA AND EXISTS "${SCHEMA}")
  file(READ "${SCHEMA}" schema)
  br_keys(keys)
  br_json(intro description)
  br_roff(intro "${intro}")
  set(keys ".PP\n${intro}\n${keys}.PP\nAny other key is an error. \
The same schema is installed as \\fIPREFIX/@DATADIR@/benchrun/suite.schema.json\\fR \
for editors and validators.\n")
else()
  set(keys ".PP\nThe suite's JSON Schema was not present when this page was \
built; the keys are described in benchrun's README, \\(lqSuite format\\(rq.\n")
endif()

file(READ "${EXAMPLE}" example)
string(REPLACE "\\" "\\e" example "${example}")
string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" example "${example}")
string(REPLACE "@DATADIR@" "${DATADIR}" keys "${keys}")

file(WRITE "${OUT}.tmp" ".TH BENCHRUN-SUITE 5 \"\" \"benchrun ${VERSION}\" \"File Formats\"
.SH NAME
benchrun-suite \\- the suite file format of benchrun (YAML, version 1)
.SH SYNOPSIS
.B benchrun
.I suite.yaml
\\&...
.SH DESCRIPTION
A suite is a YAML file that says what to measure: the kernel sources, the
kernels, the parameters swept and how each case is measured.
benchrun checks every key and value before anything is built and reports the
first problem as \\fIPATH\\fR:\\fILINE\\fR:\\fICOLUMN\\fR: \\fImessage\\fR, then
exits with status 2 and runs nothing.
Relative source paths are resolved against the directory of the suite file.
YAML anchors, aliases, tags, several documents, tabs for indentation, files
over 1 MiB and text that is not UTF-8 are refused.
.SH KEYS
${keys}.SH VALUES
.TP
.B durations
A number and a unit: ns, us, ms, s, m or min, h (\\fB25ms\\fR, \\fB1.5s\\fR).
.TP
.B expressions
Integer expressions over the parameters (64-bit, C precedence, \\fB^\\fR is a
power): \\fB4 * n\\fR, \\fB\"2^20\"\\fR, \\fBm * n * k <= 2^33 && k >= 64\\fR.
.TP
.B parameter values
A list (\\fB[1, 2, 1024]\\fR), a single value, \\fB{pow2: [lo, hi, step]}\\fR,
\\fB{from: a, to: b, step: s}\\fR, or a \\fBzip:\\fR group of parameters that
advance together.
.SH EXAMPLE
.nf
.ft CW
${example}.ft R
.fi
.SH FILES
PREFIX is where benchrun is installed (\\fI/usr\\fR for the Debian package).
.TP
.I PREFIX/${DATADIR}/benchrun/suite.schema.json
The JSON Schema of this format.
.TP
.I PREFIX/${DATADIR}/benchrun/suites/
The example suites, beside their kernels in
.IR PREFIX/${DATADIR}/benchrun/kernels/ .
.SH SEE ALSO
.BR benchrun (1)
")
file(RENAME "${OUT}.tmp" "${OUT}")
