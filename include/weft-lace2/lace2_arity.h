// SPDX-License-Identifier: Apache-2.0
/* Per-arity helpers of the Lace 2 layer (weft-lace2/lace2_bits.h), for 0..14
 * parameters (T1, a1, ..., Tn, an): written by scripts/gen_lace2_arity.py; the
 * templates in lace2_bits.h use them.  Not meant to be read
 * for the API. */
#ifndef WEFT_LACE2_ARITY_H
#define WEFT_LACE2_ARITY_H

/* , T1 a1, ..., Tn an */
#define LACE2_P_0()
#define LACE2_P_1(T1, a1) , T1 a1
#define LACE2_P_2(T1, a1, T2, a2) , T1 a1, T2 a2
#define LACE2_P_3(T1, a1, T2, a2, T3, a3) , T1 a1, T2 a2, T3 a3
#define LACE2_P_4(T1, a1, T2, a2, T3, a3, T4, a4) , T1 a1, T2 a2, T3 a3, T4 a4
#define LACE2_P_5(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5) , T1 a1, T2 a2, T3 a3, T4 a4, T5 a5
#define LACE2_P_6(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6) \
    , T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6
#define LACE2_P_7(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7) \
    , T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7
#define LACE2_P_8(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8) \
    , T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8
#define LACE2_P_9(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9) \
    , T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9
#define LACE2_P_10(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                   a10) \
    , T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10
#define LACE2_P_11(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                   a10, T11, a11) \
    , T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11
#define LACE2_P_12(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                   a10, T11, a11, T12, a12) \
    , T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12
#define LACE2_P_13(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                   a10, T11, a11, T12, a12, T13, a13) \
    , T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, \
        T13 a13
#define LACE2_P_14(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                   a10, T11, a11, T12, a12, T13, a13, T14, a14) \
    , T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, \
        T13 a13, T14 a14
/* T1 a1, ..., Tn an (void for none) */
#define LACE2_PV_0() void
#define LACE2_PV_1(T1, a1) T1 a1
#define LACE2_PV_2(T1, a1, T2, a2) T1 a1, T2 a2
#define LACE2_PV_3(T1, a1, T2, a2, T3, a3) T1 a1, T2 a2, T3 a3
#define LACE2_PV_4(T1, a1, T2, a2, T3, a3, T4, a4) T1 a1, T2 a2, T3 a3, T4 a4
#define LACE2_PV_5(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5) T1 a1, T2 a2, T3 a3, T4 a4, T5 a5
#define LACE2_PV_6(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6) \
    T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6
#define LACE2_PV_7(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7) \
    T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7
#define LACE2_PV_8(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8) \
    T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8
#define LACE2_PV_9(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9) \
    T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9
#define LACE2_PV_10(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                    a10) \
    T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10
#define LACE2_PV_11(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                    a10, T11, a11) \
    T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11
#define LACE2_PV_12(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                    a10, T11, a11, T12, a12) \
    T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12
#define LACE2_PV_13(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                    a10, T11, a11, T12, a12, T13, a13) \
    T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, \
        T13 a13
#define LACE2_PV_14(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                    a10, T11, a11, T12, a12, T13, a13, T14, a14) \
    T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7, T8 a8, T9 a9, T10 a10, T11 a11, T12 a12, \
        T13 a13, T14 a14
/* , a1, ..., an */
#define LACE2_A_0()
#define LACE2_A_1(T1, a1) , a1
#define LACE2_A_2(T1, a1, T2, a2) , a1, a2
#define LACE2_A_3(T1, a1, T2, a2, T3, a3) , a1, a2, a3
#define LACE2_A_4(T1, a1, T2, a2, T3, a3, T4, a4) , a1, a2, a3, a4
#define LACE2_A_5(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5) , a1, a2, a3, a4, a5
#define LACE2_A_6(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6) , a1, a2, a3, a4, a5, a6
#define LACE2_A_7(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7) \
    , a1, a2, a3, a4, a5, a6, a7
#define LACE2_A_8(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8) \
    , a1, a2, a3, a4, a5, a6, a7, a8
#define LACE2_A_9(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9) \
    , a1, a2, a3, a4, a5, a6, a7, a8, a9
#define LACE2_A_10(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                   a10) \
    , a1, a2, a3, a4, a5, a6, a7, a8, a9, a10
#define LACE2_A_11(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                   a10, T11, a11) \
    , a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11
#define LACE2_A_12(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                   a10, T11, a11, T12, a12) \
    , a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12
#define LACE2_A_13(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                   a10, T11, a11, T12, a12, T13, a13) \
    , a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13
#define LACE2_A_14(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                   a10, T11, a11, T12, a12, T13, a13, T14, a14) \
    , a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14
/* the fields of the argument struct */
#define LACE2_FLD_0() char lace2_none_;
#define LACE2_FLD_1(T1, a1) T1 a1;
#define LACE2_FLD_2(T1, a1, T2, a2) \
    T1 a1; \
    T2 a2;
#define LACE2_FLD_3(T1, a1, T2, a2, T3, a3) \
    T1 a1; \
    T2 a2; \
    T3 a3;
#define LACE2_FLD_4(T1, a1, T2, a2, T3, a3, T4, a4) \
    T1 a1; \
    T2 a2; \
    T3 a3; \
    T4 a4;
#define LACE2_FLD_5(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5) \
    T1 a1; \
    T2 a2; \
    T3 a3; \
    T4 a4; \
    T5 a5;
#define LACE2_FLD_6(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6) \
    T1 a1; \
    T2 a2; \
    T3 a3; \
    T4 a4; \
    T5 a5; \
    T6 a6;
#define LACE2_FLD_7(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7) \
    T1 a1; \
    T2 a2; \
    T3 a3; \
    T4 a4; \
    T5 a5; \
    T6 a6; \
    T7 a7;
#define LACE2_FLD_8(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8) \
    T1 a1; \
    T2 a2; \
    T3 a3; \
    T4 a4; \
    T5 a5; \
    T6 a6; \
    T7 a7; \
    T8 a8;
#define LACE2_FLD_9(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9) \
    T1 a1; \
    T2 a2; \
    T3 a3; \
    T4 a4; \
    T5 a5; \
    T6 a6; \
    T7 a7; \
    T8 a8; \
    T9 a9;
#define LACE2_FLD_10(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                     a10) \
    T1 a1; \
    T2 a2; \
    T3 a3; \
    T4 a4; \
    T5 a5; \
    T6 a6; \
    T7 a7; \
    T8 a8; \
    T9 a9; \
    T10 a10;
#define LACE2_FLD_11(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                     a10, T11, a11) \
    T1 a1; \
    T2 a2; \
    T3 a3; \
    T4 a4; \
    T5 a5; \
    T6 a6; \
    T7 a7; \
    T8 a8; \
    T9 a9; \
    T10 a10; \
    T11 a11;
#define LACE2_FLD_12(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                     a10, T11, a11, T12, a12) \
    T1 a1; \
    T2 a2; \
    T3 a3; \
    T4 a4; \
    T5 a5; \
    T6 a6; \
    T7 a7; \
    T8 a8; \
    T9 a9; \
    T10 a10; \
    T11 a11; \
    T12 a12;
#define LACE2_FLD_13(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                     a10, T11, a11, T12, a12, T13, a13) \
    T1 a1; \
    T2 a2; \
    T3 a3; \
    T4 a4; \
    T5 a5; \
    T6 a6; \
    T7 a7; \
    T8 a8; \
    T9 a9; \
    T10 a10; \
    T11 a11; \
    T12 a12; \
    T13 a13;
#define LACE2_FLD_14(T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, T10, \
                     a10, T11, a11, T12, a12, T13, a13, T14, a14) \
    T1 a1; \
    T2 a2; \
    T3 a3; \
    T4 a4; \
    T5 a5; \
    T6 a6; \
    T7 a7; \
    T8 a8; \
    T9 a9; \
    T10 a10; \
    T11 a11; \
    T12 a12; \
    T13 a13; \
    T14 a14;
/* store the parameters into the frame f, one word at a time where vectors
 * of 32 bytes exist (WEFT_STORE_APART_, weft/bits/task_macros.h) */
#define LACE2_ST_0(f, ...)
#define LACE2_ST_1(f, T1, a1) (f)->d.args.a1 = a1;
#define LACE2_ST_2(f, T1, a1, T2, a2) \
    (f)->d.args.a1 = a1; \
    WEFT_STORE_APART_(f)(f)->d.args.a2 = a2;
#define LACE2_ST_3(f, T1, a1, T2, a2, T3, a3) \
    (f)->d.args.a1 = a1; \
    WEFT_STORE_APART_(f)(f)->d.args.a2 = a2; \
    WEFT_STORE_APART_(f)(f)->d.args.a3 = a3;
#define LACE2_ST_4(f, T1, a1, T2, a2, T3, a3, T4, a4) \
    (f)->d.args.a1 = a1; \
    WEFT_STORE_APART_(f)(f)->d.args.a2 = a2; \
    WEFT_STORE_APART_(f)(f)->d.args.a3 = a3; \
    WEFT_STORE_APART_(f)(f)->d.args.a4 = a4;
#define LACE2_ST_5(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5) \
    (f)->d.args.a1 = a1; \
    WEFT_STORE_APART_(f)(f)->d.args.a2 = a2; \
    WEFT_STORE_APART_(f)(f)->d.args.a3 = a3; \
    WEFT_STORE_APART_(f)(f)->d.args.a4 = a4; \
    WEFT_STORE_APART_(f)(f)->d.args.a5 = a5;
#define LACE2_ST_6(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6) \
    (f)->d.args.a1 = a1; \
    WEFT_STORE_APART_(f)(f)->d.args.a2 = a2; \
    WEFT_STORE_APART_(f)(f)->d.args.a3 = a3; \
    WEFT_STORE_APART_(f)(f)->d.args.a4 = a4; \
    WEFT_STORE_APART_(f)(f)->d.args.a5 = a5; \
    WEFT_STORE_APART_(f)(f)->d.args.a6 = a6;
#define LACE2_ST_7(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7) \
    (f)->d.args.a1 = a1; \
    WEFT_STORE_APART_(f)(f)->d.args.a2 = a2; \
    WEFT_STORE_APART_(f)(f)->d.args.a3 = a3; \
    WEFT_STORE_APART_(f)(f)->d.args.a4 = a4; \
    WEFT_STORE_APART_(f)(f)->d.args.a5 = a5; \
    WEFT_STORE_APART_(f)(f)->d.args.a6 = a6; \
    WEFT_STORE_APART_(f)(f)->d.args.a7 = a7;
#define LACE2_ST_8(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8) \
    (f)->d.args.a1 = a1; \
    WEFT_STORE_APART_(f)(f)->d.args.a2 = a2; \
    WEFT_STORE_APART_(f)(f)->d.args.a3 = a3; \
    WEFT_STORE_APART_(f)(f)->d.args.a4 = a4; \
    WEFT_STORE_APART_(f)(f)->d.args.a5 = a5; \
    WEFT_STORE_APART_(f)(f)->d.args.a6 = a6; \
    WEFT_STORE_APART_(f)(f)->d.args.a7 = a7; \
    WEFT_STORE_APART_(f)(f)->d.args.a8 = a8;
#define LACE2_ST_9(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9) \
    (f)->d.args.a1 = a1; \
    WEFT_STORE_APART_(f)(f)->d.args.a2 = a2; \
    WEFT_STORE_APART_(f)(f)->d.args.a3 = a3; \
    WEFT_STORE_APART_(f)(f)->d.args.a4 = a4; \
    WEFT_STORE_APART_(f)(f)->d.args.a5 = a5; \
    WEFT_STORE_APART_(f)(f)->d.args.a6 = a6; \
    WEFT_STORE_APART_(f)(f)->d.args.a7 = a7; \
    WEFT_STORE_APART_(f)(f)->d.args.a8 = a8; \
    WEFT_STORE_APART_(f)(f)->d.args.a9 = a9;
#define LACE2_ST_10(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, \
                    T10, a10) \
    (f)->d.args.a1 = a1; \
    WEFT_STORE_APART_(f)(f)->d.args.a2 = a2; \
    WEFT_STORE_APART_(f)(f)->d.args.a3 = a3; \
    WEFT_STORE_APART_(f)(f)->d.args.a4 = a4; \
    WEFT_STORE_APART_(f)(f)->d.args.a5 = a5; \
    WEFT_STORE_APART_(f)(f)->d.args.a6 = a6; \
    WEFT_STORE_APART_(f)(f)->d.args.a7 = a7; \
    WEFT_STORE_APART_(f)(f)->d.args.a8 = a8; \
    WEFT_STORE_APART_(f)(f)->d.args.a9 = a9; \
    WEFT_STORE_APART_(f)(f)->d.args.a10 = a10;
#define LACE2_ST_11(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, \
                    T10, a10, T11, a11) \
    (f)->d.args.a1 = a1; \
    WEFT_STORE_APART_(f)(f)->d.args.a2 = a2; \
    WEFT_STORE_APART_(f)(f)->d.args.a3 = a3; \
    WEFT_STORE_APART_(f)(f)->d.args.a4 = a4; \
    WEFT_STORE_APART_(f)(f)->d.args.a5 = a5; \
    WEFT_STORE_APART_(f)(f)->d.args.a6 = a6; \
    WEFT_STORE_APART_(f)(f)->d.args.a7 = a7; \
    WEFT_STORE_APART_(f)(f)->d.args.a8 = a8; \
    WEFT_STORE_APART_(f)(f)->d.args.a9 = a9; \
    WEFT_STORE_APART_(f)(f)->d.args.a10 = a10; \
    WEFT_STORE_APART_(f)(f)->d.args.a11 = a11;
#define LACE2_ST_12(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, \
                    T10, a10, T11, a11, T12, a12) \
    (f)->d.args.a1 = a1; \
    WEFT_STORE_APART_(f)(f)->d.args.a2 = a2; \
    WEFT_STORE_APART_(f)(f)->d.args.a3 = a3; \
    WEFT_STORE_APART_(f)(f)->d.args.a4 = a4; \
    WEFT_STORE_APART_(f)(f)->d.args.a5 = a5; \
    WEFT_STORE_APART_(f)(f)->d.args.a6 = a6; \
    WEFT_STORE_APART_(f)(f)->d.args.a7 = a7; \
    WEFT_STORE_APART_(f)(f)->d.args.a8 = a8; \
    WEFT_STORE_APART_(f)(f)->d.args.a9 = a9; \
    WEFT_STORE_APART_(f)(f)->d.args.a10 = a10; \
    WEFT_STORE_APART_(f)(f)->d.args.a11 = a11; \
    WEFT_STORE_APART_(f)(f)->d.args.a12 = a12;
#define LACE2_ST_13(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, \
                    T10, a10, T11, a11, T12, a12, T13, a13) \
    (f)->d.args.a1 = a1; \
    WEFT_STORE_APART_(f)(f)->d.args.a2 = a2; \
    WEFT_STORE_APART_(f)(f)->d.args.a3 = a3; \
    WEFT_STORE_APART_(f)(f)->d.args.a4 = a4; \
    WEFT_STORE_APART_(f)(f)->d.args.a5 = a5; \
    WEFT_STORE_APART_(f)(f)->d.args.a6 = a6; \
    WEFT_STORE_APART_(f)(f)->d.args.a7 = a7; \
    WEFT_STORE_APART_(f)(f)->d.args.a8 = a8; \
    WEFT_STORE_APART_(f)(f)->d.args.a9 = a9; \
    WEFT_STORE_APART_(f)(f)->d.args.a10 = a10; \
    WEFT_STORE_APART_(f)(f)->d.args.a11 = a11; \
    WEFT_STORE_APART_(f)(f)->d.args.a12 = a12; \
    WEFT_STORE_APART_(f)(f)->d.args.a13 = a13;
#define LACE2_ST_14(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, \
                    T10, a10, T11, a11, T12, a12, T13, a13, T14, a14) \
    (f)->d.args.a1 = a1; \
    WEFT_STORE_APART_(f)(f)->d.args.a2 = a2; \
    WEFT_STORE_APART_(f)(f)->d.args.a3 = a3; \
    WEFT_STORE_APART_(f)(f)->d.args.a4 = a4; \
    WEFT_STORE_APART_(f)(f)->d.args.a5 = a5; \
    WEFT_STORE_APART_(f)(f)->d.args.a6 = a6; \
    WEFT_STORE_APART_(f)(f)->d.args.a7 = a7; \
    WEFT_STORE_APART_(f)(f)->d.args.a8 = a8; \
    WEFT_STORE_APART_(f)(f)->d.args.a9 = a9; \
    WEFT_STORE_APART_(f)(f)->d.args.a10 = a10; \
    WEFT_STORE_APART_(f)(f)->d.args.a11 = a11; \
    WEFT_STORE_APART_(f)(f)->d.args.a12 = a12; \
    WEFT_STORE_APART_(f)(f)->d.args.a13 = a13; \
    WEFT_STORE_APART_(f)(f)->d.args.a14 = a14;
/* , f->d.args.a1, ..., f->d.args.an */
#define LACE2_LD_0(f, ...)
#define LACE2_LD_1(f, T1, a1) , (f)->d.args.a1
#define LACE2_LD_2(f, T1, a1, T2, a2) , (f)->d.args.a1, (f)->d.args.a2
#define LACE2_LD_3(f, T1, a1, T2, a2, T3, a3) , (f)->d.args.a1, (f)->d.args.a2, (f)->d.args.a3
#define LACE2_LD_4(f, T1, a1, T2, a2, T3, a3, T4, a4) \
    , (f)->d.args.a1, (f)->d.args.a2, (f)->d.args.a3, (f)->d.args.a4
#define LACE2_LD_5(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5) \
    , (f)->d.args.a1, (f)->d.args.a2, (f)->d.args.a3, (f)->d.args.a4, (f)->d.args.a5
#define LACE2_LD_6(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6) \
    , (f)->d.args.a1, (f)->d.args.a2, (f)->d.args.a3, (f)->d.args.a4, (f)->d.args.a5, (f)->d.args.a6
#define LACE2_LD_7(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7) \
    , (f)->d.args.a1, (f)->d.args.a2, (f)->d.args.a3, (f)->d.args.a4, (f)->d.args.a5, \
        (f)->d.args.a6, (f)->d.args.a7
#define LACE2_LD_8(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8) \
    , (f)->d.args.a1, (f)->d.args.a2, (f)->d.args.a3, (f)->d.args.a4, (f)->d.args.a5, \
        (f)->d.args.a6, (f)->d.args.a7, (f)->d.args.a8
#define LACE2_LD_9(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9) \
    , (f)->d.args.a1, (f)->d.args.a2, (f)->d.args.a3, (f)->d.args.a4, (f)->d.args.a5, \
        (f)->d.args.a6, (f)->d.args.a7, (f)->d.args.a8, (f)->d.args.a9
#define LACE2_LD_10(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, \
                    T10, a10) \
    , (f)->d.args.a1, (f)->d.args.a2, (f)->d.args.a3, (f)->d.args.a4, (f)->d.args.a5, \
        (f)->d.args.a6, (f)->d.args.a7, (f)->d.args.a8, (f)->d.args.a9, (f)->d.args.a10
#define LACE2_LD_11(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, \
                    T10, a10, T11, a11) \
    , (f)->d.args.a1, (f)->d.args.a2, (f)->d.args.a3, (f)->d.args.a4, (f)->d.args.a5, \
        (f)->d.args.a6, (f)->d.args.a7, (f)->d.args.a8, (f)->d.args.a9, (f)->d.args.a10, \
        (f)->d.args.a11
#define LACE2_LD_12(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, \
                    T10, a10, T11, a11, T12, a12) \
    , (f)->d.args.a1, (f)->d.args.a2, (f)->d.args.a3, (f)->d.args.a4, (f)->d.args.a5, \
        (f)->d.args.a6, (f)->d.args.a7, (f)->d.args.a8, (f)->d.args.a9, (f)->d.args.a10, \
        (f)->d.args.a11, (f)->d.args.a12
#define LACE2_LD_13(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, \
                    T10, a10, T11, a11, T12, a12, T13, a13) \
    , (f)->d.args.a1, (f)->d.args.a2, (f)->d.args.a3, (f)->d.args.a4, (f)->d.args.a5, \
        (f)->d.args.a6, (f)->d.args.a7, (f)->d.args.a8, (f)->d.args.a9, (f)->d.args.a10, \
        (f)->d.args.a11, (f)->d.args.a12, (f)->d.args.a13
#define LACE2_LD_14(f, T1, a1, T2, a2, T3, a3, T4, a4, T5, a5, T6, a6, T7, a7, T8, a8, T9, a9, \
                    T10, a10, T11, a11, T12, a12, T13, a13, T14, a14) \
    , (f)->d.args.a1, (f)->d.args.a2, (f)->d.args.a3, (f)->d.args.a4, (f)->d.args.a5, \
        (f)->d.args.a6, (f)->d.args.a7, (f)->d.args.a8, (f)->d.args.a9, (f)->d.args.a10, \
        (f)->d.args.a11, (f)->d.args.a12, (f)->d.args.a13, (f)->d.args.a14

/* TASK(RTYPE, NAME, T1, a1, ...): NAME and the pairs counted (1, 3, ..., 29
 * arguments), then mapped to the number of parameters. */
#define LACE2_NARG_(...) \
    LACE2_NARG_N_(__VA_ARGS__, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, \
                  13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define LACE2_NARG_N_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, \
                      _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, N, ...) \
    N
#define LACE2_PARAMS_OF_1 0
#define LACE2_PARAMS_OF_3 1
#define LACE2_PARAMS_OF_5 2
#define LACE2_PARAMS_OF_7 3
#define LACE2_PARAMS_OF_9 4
#define LACE2_PARAMS_OF_11 5
#define LACE2_PARAMS_OF_13 6
#define LACE2_PARAMS_OF_15 7
#define LACE2_PARAMS_OF_17 8
#define LACE2_PARAMS_OF_19 9
#define LACE2_PARAMS_OF_21 10
#define LACE2_PARAMS_OF_23 11
#define LACE2_PARAMS_OF_25 12
#define LACE2_PARAMS_OF_27 13
#define LACE2_PARAMS_OF_29 14

#endif
