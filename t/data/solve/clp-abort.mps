NAME bfsolve
ROWS
 N obj
 L grow
 E one_0
 E one_1
 E one_2
 E one_3
 E one_4
 E one_5
 E one_6
 E one_7
 E one_8
 E one_9
 E one_10
 E one_11
 E one_12
 E one_13
 E one_14
 E one_15
 E one_16
 E one_17
 E one_18
 E one_19
 E one_20
 E one_21
 E one_22
 E one_23
 E one_24
 E one_25
 E one_26
 E one_27
 E one_28
 E one_29
 E one_30
 E one_31
 E one_32
 E one_33
 E one_34
 E one_35
 E one_36
 E one_37
 E one_38
 E one_39
 E one_40
 E one_41
 E one_42
 E one_43
 E one_44
 E one_45
 E one_46
 E one_47
 E one_48
 E one_49
 L user_1000
 L user_1001
 L user_1003
 L user_1004
 L user_1010
 L user_1012
 L user_1014
 L user_1015
 L user_1016
 L user_1018
 L user_1019
 L user_1022
 L user_1023
 L user_1032
 L user_1033
 G group_0
 L rescale
COLUMNS
 MARKER 'MARKER' 'INTORG'
 y_0_0 obj 526819.2
 y_0_0 one_0 1
 y_0_0 rescale 1
 y_0_1 obj 499380.69999999995
 y_0_1 one_0 1
 y_0_1 user_1001 1
 y_0_1 group_0 1
 y_0_1 rescale 1
 y_0_2 obj 471942.19999999995
 y_0_2 one_0 1
 y_0_2 user_1001 2
 y_0_2 group_0 2
 y_0_2 rescale 1
 y_0_3 obj 444503.69999999995
 y_0_3 one_0 1
 y_0_3 user_1001 3
 y_0_3 group_0 3
 y_0_3 rescale 1
 y_0_4 obj 417065.19999999995
 y_0_4 one_0 1
 y_0_4 user_1001 4
 y_0_4 group_0 4
 y_0_4 rescale 1
 y_0_5 obj 389626.69999999995
 y_0_5 one_0 1
 y_0_5 user_1001 5
 y_0_5 group_0 5
 y_0_5 rescale 1
 y_0_6 obj 362188.19999999995
 y_0_6 one_0 1
 y_0_6 user_1001 6
 y_0_6 group_0 6
 y_0_6 rescale 1
 y_0_7 obj 334749.69999999995
 y_0_7 one_0 1
 y_0_7 user_1001 7
 y_0_7 group_0 7
 y_0_7 rescale 1
 y_0_8 obj 307311.19999999995
 y_0_8 one_0 1
 y_0_8 user_1001 8
 y_0_8 group_0 8
 y_0_8 rescale 1
 y_0_9 obj 279872.69999999995
 y_0_9 one_0 1
 y_0_9 user_1001 9
 y_0_9 group_0 9
 y_0_9 rescale 1
 y_0_10 obj 252434.19999999995
 y_0_10 one_0 1
 y_0_10 user_1001 10
 y_0_10 group_0 10
 y_0_10 rescale 1
 y_0_11 obj 224995.69999999995
 y_0_11 one_0 1
 y_0_11 user_1001 11
 y_0_11 group_0 11
 y_0_11 rescale 1
 y_0_12 obj 197557.19999999995
 y_0_12 one_0 1
 y_0_12 user_1001 12
 y_0_12 group_0 12
 y_0_12 rescale 1
 y_0_13 obj 170118.7
 y_0_13 one_0 1
 y_0_13 user_1001 13
 y_0_13 group_0 13
 y_0_13 rescale 1
 y_0_14 obj 142680.19999999995
 y_0_14 one_0 1
 y_0_14 user_1001 14
 y_0_14 group_0 14
 y_0_14 rescale 1
 y_0_15 obj 115241.69999999995
 y_0_15 one_0 1
 y_0_15 user_1001 15
 y_0_15 group_0 15
 y_0_15 rescale 1
 y_0_16 obj -439016
 y_0_16 one_0 1
 y_0_16 user_1001 16
 y_0_16 group_0 16
 y_1_0 obj 119856.95999999999
 y_1_0 one_1 1
 y_1_0 rescale 1
 y_1_1 obj 93190.159999999989
 y_1_1 one_1 1
 y_1_1 user_1001 1
 y_1_1 rescale 1
 y_1_2 obj 68162.16
 y_1_2 one_1 1
 y_1_2 user_1001 2
 y_1_2 rescale 1
 y_1_3 obj 44069.159999999989
 y_1_3 one_1 1
 y_1_3 user_1001 3
 y_1_3 rescale 1
 y_1_4 obj -99880.8
 y_1_4 one_1 1
 y_1_4 user_1001 4
 y_1_5 obj 56573.09
 y_1_5 one_1 1
 y_1_5 grow 1
 y_1_5 user_1001 5
 y_1_5 rescale 1
 y_1_6 obj 33241.540000000008
 y_1_6 one_1 1
 y_1_6 grow 2
 y_1_6 user_1001 6
 y_1_6 rescale 1
 y_1_7 obj 9909.99000000002
 y_1_7 one_1 1
 y_1_7 grow 3
 y_1_7 user_1001 7
 y_1_7 rescale 1
 y_1_8 obj -13421.559999999998
 y_1_8 one_1 1
 y_1_8 grow 4
 y_1_8 user_1001 8
 y_1_8 rescale 1
 y_1_9 obj -35860.560000000027
 y_1_9 one_1 1
 y_1_9 grow 5
 y_1_9 user_1001 9
 y_1_9 rescale 1
 y_1_10 obj -58299.56
 y_1_10 one_1 1
 y_1_10 grow 6
 y_1_10 user_1001 10
 y_1_10 rescale 1
 y_1_11 obj -80738.56
 y_1_11 one_1 1
 y_1_11 grow 7
 y_1_11 user_1001 11
 y_1_11 rescale 1
 y_1_12 obj -103177.56
 y_1_12 one_1 1
 y_1_12 grow 8
 y_1_12 user_1001 12
 y_1_12 rescale 1
 y_1_13 obj -125616.56
 y_1_13 one_1 1
 y_1_13 grow 9
 y_1_13 user_1001 13
 y_1_13 rescale 1
 y_1_14 obj -148055.56000000006
 y_1_14 one_1 1
 y_1_14 grow 10
 y_1_14 user_1001 14
 y_1_14 rescale 1
 y_1_15 obj -170494.56
 y_1_15 one_1 1
 y_1_15 grow 11
 y_1_15 user_1001 15
 y_1_15 rescale 1
 y_1_16 obj -192933.56
 y_1_16 one_1 1
 y_1_16 grow 12
 y_1_16 user_1001 16
 y_1_16 rescale 1
 y_2_0 obj 244476
 y_2_0 one_2 1
 y_2_0 rescale 1
 y_2_1 obj 216166
 y_2_1 one_2 1
 y_2_1 user_1001 1
 y_2_1 rescale 1
 y_2_2 obj 191106
 y_2_2 one_2 1
 y_2_2 user_1001 2
 y_2_2 rescale 1
 y_2_3 obj 166046
 y_2_3 one_2 1
 y_2_3 user_1001 3
 y_2_3 rescale 1
 y_2_4 obj 140986
 y_2_4 one_2 1
 y_2_4 user_1001 4
 y_2_4 rescale 1
 y_2_5 obj 115926
 y_2_5 one_2 1
 y_2_5 user_1001 5
 y_2_5 rescale 1
 y_2_6 obj 90866
 y_2_6 one_2 1
 y_2_6 user_1001 6
 y_2_6 rescale 1
 y_2_7 obj 65806
 y_2_7 one_2 1
 y_2_7 user_1001 7
 y_2_7 rescale 1
 y_2_8 obj -203730
 y_2_8 one_2 1
 y_2_8 user_1001 8
 y_3_0 obj 433172.39999999997
 y_3_0 one_3 1
 y_3_0 rescale 1
 y_3_1 obj 400992.69999999995
 y_3_1 one_3 1
 y_3_1 user_1012 1
 y_3_1 rescale 1
 y_3_2 obj 373152.69999999995
 y_3_2 one_3 1
 y_3_2 user_1012 2
 y_3_2 rescale 1
 y_3_3 obj 346844.04999999993
 y_3_3 one_3 1
 y_3_3 user_1012 3
 y_3_3 rescale 1
 y_3_4 obj 320535.39999999997
 y_3_4 one_3 1
 y_3_4 user_1012 4
 y_3_4 rescale 1
 y_3_5 obj 293836.39999999997
 y_3_5 one_3 1
 y_3_5 user_1012 5
 y_3_5 rescale 1
 y_3_6 obj 267137.39999999997
 y_3_6 one_3 1
 y_3_6 user_1012 6
 y_3_6 rescale 1
 y_3_7 obj 237496.39999999997
 y_3_7 one_3 1
 y_3_7 user_1012 7
 y_3_7 rescale 1
 y_3_8 obj 207855.39999999997
 y_3_8 one_3 1
 y_3_8 user_1012 8
 y_3_8 rescale 1
 y_3_9 obj 180011.73333333331
 y_3_9 one_3 1
 y_3_9 user_1012 9
 y_3_9 rescale 1
 y_3_10 obj 152168.06666666659
 y_3_10 one_3 1
 y_3_10 user_1012 10
 y_3_10 rescale 1
 y_3_11 obj 124324.39999999997
 y_3_11 one_3 1
 y_3_11 user_1012 11
 y_3_11 rescale 1
 y_3_12 obj 98259.899999999965
 y_3_12 one_3 1
 y_3_12 user_1012 12
 y_3_12 rescale 1
 y_3_13 obj -360977
 y_3_13 one_3 1
 y_3_13 user_1012 13
 y_3_14 obj -303265.66933333332
 y_3_14 one_3 1
 y_3_14 grow 1
 y_3_14 user_1012 14
 y_3_14 rescale 1
 y_3_15 obj -329301.0026666667
 y_3_15 one_3 1
 y_3_15 grow 2
 y_3_15 user_1012 15
 y_3_15 rescale 1
 y_3_16 obj -355336.336
 y_3_16 one_3 1
 y_3_16 grow 3
 y_3_16 user_1012 16
 y_3_16 rescale 1
 y_4_0 obj 160046.16
 y_4_0 one_4 1
 y_4_0 rescale 1
 y_4_1 obj 138593.96000000002
 y_4_1 one_4 1
 y_4_1 user_1019 1
 y_4_1 rescale 1
 y_4_2 obj 120376.96
 y_4_2 one_4 1
 y_4_2 user_1019 2
 y_4_2 rescale 1
 y_4_3 obj 102242.76000000001
 y_4_3 one_4 1
 y_4_3 user_1019 3
 y_4_3 rescale 1
 y_4_4 obj 84108.56
 y_4_4 one_4 1
 y_4_4 user_1019 4
 y_4_4 rescale 1
 y_4_5 obj 64963.82666666666
 y_4_5 one_4 1
 y_4_5 user_1019 5
 y_4_5 rescale 1
 y_4_6 obj 45819.093333333338
 y_4_6 one_4 1
 y_4_6 user_1019 6
 y_4_6 rescale 1
 y_4_7 obj -133371.8
 y_4_7 one_4 1
 y_4_7 user_1019 7
 y_4_8 obj 87552.639999999985
 y_4_8 one_4 1
 y_4_8 grow 1
 y_4_8 user_1019 8
 y_4_8 rescale 1
 y_5_0 obj 438970.80000000005
 y_5_0 one_5 1
 y_5_0 rescale 1
 y_5_1 obj 411121.80000000005
 y_5_1 one_5 1
 y_5_1 user_1018 1
 y_5_1 rescale 1
 y_5_2 obj 384984.10000000003
 y_5_2 one_5 1
 y_5_2 user_1018 2
 y_5_2 rescale 1
 y_5_3 obj 359822.95000000007
 y_5_3 one_5 1
 y_5_3 user_1018 3
 y_5_3 rescale 1
 y_5_4 obj 334661.80000000005
 y_5_4 one_5 1
 y_5_4 user_1018 4
 y_5_4 rescale 1
 y_5_5 obj 310295.80000000005
 y_5_5 one_5 1
 y_5_5 user_1018 5
 y_5_5 rescale 1
 y_5_6 obj 285929.80000000005
 y_5_6 one_5 1
 y_5_6 user_1018 6
 y_5_6 rescale 1
 y_5_7 obj 261563.80000000008
 y_5_7 one_5 1
 y_5_7 user_1018 7
 y_5_7 rescale 1
 y_5_8 obj 237197.80000000005
 y_5_8 one_5 1
 y_5_8 user_1018 8
 y_5_8 rescale 1
 y_5_9 obj 213764.08571428576
 y_5_9 one_5 1
 y_5_9 user_1018 9
 y_5_9 rescale 1
 y_5_10 obj 190330.37142857147
 y_5_10 one_5 1
 y_5_10 user_1018 10
 y_5_10 rescale 1
 y_5_11 obj 166896.65714285721
 y_5_11 one_5 1
 y_5_11 user_1018 11
 y_5_11 rescale 1
 y_5_12 obj 143462.94285714289
 y_5_12 one_5 1
 y_5_12 user_1018 12
 y_5_12 rescale 1
 y_5_13 obj 120029.22857142863
 y_5_13 one_5 1
 y_5_13 user_1018 13
 y_5_13 rescale 1
 y_5_14 obj 96595.514285714366
 y_5_14 one_5 1
 y_5_14 user_1018 14
 y_5_14 rescale 1
 y_5_15 obj -365809
 y_5_15 one_5 1
 y_5_15 user_1018 15
 y_5_16 obj 269213.20000000007
 y_5_16 one_5 1
 y_5_16 grow 1
 y_5_16 user_1018 16
 y_5_16 rescale 1
 y_6_0 obj 33972.72
 y_6_0 one_6 1
 y_6_0 rescale 1
 y_6_1 obj -28310.6
 y_6_1 one_6 1
 y_6_1 user_1016 1
 y_6_2 obj -2419.8628571428562
 y_6_2 one_6 1
 y_6_2 grow 1
 y_6_2 user_1016 2
 y_6_2 rescale 1
 y_6_3 obj -27488.205714285708
 y_6_3 one_6 1
 y_6_3 grow 2
 y_6_3 user_1016 3
 y_6_3 rescale 1
 y_6_4 obj -52556.548571428561
 y_6_4 one_6 1
 y_6_4 grow 3
 y_6_4 user_1016 4
 y_6_4 rescale 1
 y_6_5 obj -77624.891428571413
 y_6_5 one_6 1
 y_6_5 grow 4
 y_6_5 user_1016 5
 y_6_5 rescale 1
 y_6_6 obj -102693.23428571426
 y_6_6 one_6 1
 y_6_6 grow 5
 y_6_6 user_1016 6
 y_6_6 rescale 1
 y_6_7 obj -127761.57714285715
 y_6_7 one_6 1
 y_6_7 grow 6
 y_6_7 user_1016 7
 y_6_7 rescale 1
 y_6_8 obj -152829.91999999998
 y_6_8 one_6 1
 y_6_8 grow 7
 y_6_8 user_1016 8
 y_6_8 rescale 1
 y_7_0 obj 75758.16
 y_7_0 one_7 1
 y_7_0 rescale 1
 y_7_1 obj -63131.8
 y_7_1 one_7 1
 y_7_1 user_1004 1
 y_7_2 obj -6400.1599999999889
 y_7_2 one_7 1
 y_7_2 grow 1
 y_7_2 user_1004 2
 y_7_2 rescale 1
 y_7_3 obj -56613.36
 y_7_3 one_7 1
 y_7_3 grow 2
 y_7_3 user_1004 3
 y_7_3 rescale 1
 y_7_4 obj -93636.633335479171
 y_7_4 one_7 1
 y_7_4 grow 3
 y_7_4 user_1004 4
 y_7_4 rescale 1
 y_7_5 obj -130659.90667095837
 y_7_5 one_7 1
 y_7_5 grow 4
 y_7_5 user_1004 5
 y_7_5 rescale 1
 y_7_6 obj -167683.18000643759
 y_7_6 one_7 1
 y_7_6 grow 5
 y_7_6 user_1004 6
 y_7_6 rescale 1
 y_7_7 obj -182395.22100713255
 y_7_7 one_7 1
 y_7_7 grow 6
 y_7_7 user_1004 7
 y_7_7 rescale 1
 y_7_8 obj -197107.26200782752
 y_7_8 one_7 1
 y_7_8 grow 7
 y_7_8 user_1004 8
 y_7_8 rescale 1
 y_7_9 obj -211819.30300852255
 y_7_9 one_7 1
 y_7_9 grow 8
 y_7_9 user_1004 9
 y_7_9 rescale 1
 y_7_10 obj -226531.34400921752
 y_7_10 one_7 1
 y_7_10 grow 9
 y_7_10 user_1004 10
 y_7_10 rescale 1
 y_7_11 obj -241243.38500991248
 y_7_11 one_7 1
 y_7_11 grow 10
 y_7_11 user_1004 11
 y_7_11 rescale 1
 y_7_12 obj -255955.42601060751
 y_7_12 one_7 1
 y_7_12 grow 11
 y_7_12 user_1004 12
 y_7_12 rescale 1
 y_7_13 obj -270667.46701130253
 y_7_13 one_7 1
 y_7_13 grow 12
 y_7_13 user_1004 13
 y_7_13 rescale 1
 y_7_14 obj -285379.5080119975
 y_7_14 one_7 1
 y_7_14 grow 13
 y_7_14 user_1004 14
 y_7_14 rescale 1
 y_7_15 obj -300091.54901269241
 y_7_15 one_7 1
 y_7_15 grow 14
 y_7_15 user_1004 15
 y_7_15 rescale 1
 y_7_16 obj -314803.5900133875
 y_7_16 one_7 1
 y_7_16 grow 15
 y_7_16 user_1004 16
 y_7_16 rescale 1
 y_8_0 obj 16988.16
 y_8_0 one_8 1
 y_8_0 rescale 1
 y_8_1 obj -14156.800000000001
 y_8_1 one_8 1
 y_8_2 obj -1208.3028571428549
 y_8_2 one_8 1
 y_8_2 grow 1
 y_8_2 rescale 1
 y_8_3 obj -13742.045714285716
 y_8_3 one_8 1
 y_8_3 grow 2
 y_8_3 rescale 1
 y_8_4 obj -26275.788571428569
 y_8_4 one_8 1
 y_8_4 grow 3
 y_8_4 rescale 1
 y_8_5 obj -38809.531428571427
 y_8_5 one_8 1
 y_8_5 grow 4
 y_8_5 rescale 1
 y_8_6 obj -51343.274285714273
 y_8_6 one_8 1
 y_8_6 grow 5
 y_8_6 rescale 1
 y_8_7 obj -63877.017142857119
 y_8_7 one_8 1
 y_8_7 grow 6
 y_8_7 rescale 1
 y_8_8 obj -76410.76
 y_8_8 one_8 1
 y_8_8 grow 7
 y_8_8 rescale 1
 y_9_0 obj 48749.728500000005
 y_9_0 one_9 1
 y_9_0 rescale 1
 y_9_1 obj -32521.5
 y_9_1 one_9 1
 y_9_1 user_1000 1
 y_9_2 obj -1481.9999999999927
 y_9_2 one_9 1
 y_9_2 grow 1
 y_9_2 user_1000 2
 y_9_2 rescale 1
 y_9_3 obj -28920.700000000004
 y_9_3 one_9 1
 y_9_3 grow 2
 y_9_3 user_1000 3
 y_9_3 rescale 1
 y_9_4 obj -49742.052097034357
 y_9_4 one_9 1
 y_9_4 grow 3
 y_9_4 user_1000 4
 y_9_4 rescale 1
 y_9_5 obj -70563.404194068688
 y_9_5 one_9 1
 y_9_5 grow 4
 y_9_5 user_1000 5
 y_9_5 rescale 1
 y_9_6 obj -91384.756291103055
 y_9_6 one_9 1
 y_9_6 grow 5
 y_9_6 user_1000 6
 y_9_6 rescale 1
 y_9_7 obj -112206.10838813742
 y_9_7 one_9 1
 y_9_7 grow 6
 y_9_7 user_1000 7
 y_9_7 rescale 1
 y_9_8 obj -133027.46048517176
 y_9_8 one_9 1
 y_9_8 grow 7
 y_9_8 user_1000 8
 y_9_8 rescale 1
 y_10_0 one_10 1
 y_10_1 obj -32457.399999999998
 y_10_1 one_10 1
 y_10_1 grow 1
 y_10_1 user_1023 1
 y_10_1 rescale 1
 y_10_2 obj -60019.3
 y_10_2 one_10 1
 y_10_2 grow 2
 y_10_2 user_1023 2
 y_10_2 rescale 1
 y_10_3 obj -87455.650000000009
 y_10_3 one_10 1
 y_10_3 grow 3
 y_10_3 user_1023 3
 y_10_3 rescale 1
 y_10_4 obj -114892
 y_10_4 one_10 1
 y_10_4 grow 4
 y_10_4 user_1023 4
 y_10_4 rescale 1
 y_10_5 obj -143855.66666666669
 y_10_5 one_10 1
 y_10_5 grow 5
 y_10_5 user_1023 5
 y_10_5 rescale 1
 y_10_6 obj -172819.33333333334
 y_10_6 one_10 1
 y_10_6 grow 6
 y_10_6 user_1023 6
 y_10_6 rescale 1
 y_10_7 obj -201783
 y_10_7 one_10 1
 y_10_7 grow 7
 y_10_7 user_1023 7
 y_10_7 rescale 1
 y_10_8 obj -230748
 y_10_8 one_10 1
 y_10_8 grow 8
 y_10_8 user_1023 8
 y_10_8 rescale 1
 y_10_9 obj -256777.12499999997
 y_10_9 one_10 1
 y_10_9 grow 9
 y_10_9 user_1023 9
 y_10_9 rescale 1
 y_10_10 obj -282806.25
 y_10_10 one_10 1
 y_10_10 grow 10
 y_10_10 user_1023 10
 y_10_10 rescale 1
 y_10_11 obj -308835.375
 y_10_11 one_10 1
 y_10_11 grow 11
 y_10_11 user_1023 11
 y_10_11 rescale 1
 y_10_12 obj -334864.5
 y_10_12 one_10 1
 y_10_12 grow 12
 y_10_12 user_1023 12
 y_10_12 rescale 1
 y_10_13 obj -360893.625
 y_10_13 one_10 1
 y_10_13 grow 13
 y_10_13 user_1023 13
 y_10_13 rescale 1
 y_10_14 obj -386922.74999999994
 y_10_14 one_10 1
 y_10_14 grow 14
 y_10_14 user_1023 14
 y_10_14 rescale 1
 y_10_15 obj -412951.875
 y_10_15 one_10 1
 y_10_15 grow 15
 y_10_15 user_1023 15
 y_10_15 rescale 1
 y_10_16 obj -438981
 y_10_16 one_10 1
 y_10_16 grow 16
 y_10_16 user_1023 16
 y_10_16 rescale 1
 y_11_0 obj 484545.875
 y_11_0 one_11 1
 y_11_0 rescale 1
 y_11_1 obj 456235.175
 y_11_1 one_11 1
 y_11_1 user_1014 1
 y_11_1 rescale 1
 y_11_2 obj 431960.275
 y_11_2 one_11 1
 y_11_2 user_1014 2
 y_11_2 rescale 1
 y_11_3 obj 406864.57499999995
 y_11_3 one_11 1
 y_11_3 user_1014 3
 y_11_3 rescale 1
 y_11_4 obj 381768.875
 y_11_4 one_11 1
 y_11_4 user_1014 4
 y_11_4 rescale 1
 y_11_5 obj 356761.54166666663
 y_11_5 one_11 1
 y_11_5 user_1014 5
 y_11_5 rescale 1
 y_11_6 obj 331754.20833333331
 y_11_6 one_11 1
 y_11_6 user_1014 6
 y_11_6 rescale 1
 y_11_7 obj 306746.875
 y_11_7 one_11 1
 y_11_7 user_1014 7
 y_11_7 rescale 1
 y_11_8 obj 280736.875
 y_11_8 one_11 1
 y_11_8 user_1014 8
 y_11_8 rescale 1
 y_11_9 obj 257610.30357142855
 y_11_9 one_11 1
 y_11_9 user_1014 9
 y_11_9 rescale 1
 y_11_10 obj 234483.73214285713
 y_11_10 one_11 1
 y_11_10 user_1014 10
 y_11_10 rescale 1
 y_11_11 obj 211357.16071428568
 y_11_11 one_11 1
 y_11_11 user_1014 11
 y_11_11 rescale 1
 y_11_12 obj 188230.58928571432
 y_11_12 one_11 1
 y_11_12 user_1014 12
 y_11_12 rescale 1
 y_11_13 obj 165104.01785714284
 y_11_13 one_11 1
 y_11_13 user_1014 13
 y_11_13 rescale 1
 y_11_14 obj 141977.44642857142
 y_11_14 one_11 1
 y_11_14 user_1014 14
 y_11_14 rescale 1
 y_11_15 obj -365695
 y_11_15 one_11 1
 y_11_15 user_1014 15
 y_11_16 obj 268855
 y_11_16 one_11 1
 y_11_16 grow 1
 y_11_16 user_1014 16
 y_11_16 rescale 1
 y_12_0 obj 57340.799999999996
 y_12_0 one_12 1
 y_12_0 rescale 1
 y_12_1 obj 33471.599999999991
 y_12_1 one_12 1
 y_12_1 user_1004 1
 y_12_1 rescale 1
 y_12_2 obj -47784
 y_12_2 one_12 1
 y_12_2 user_1004 2
 y_12_3 obj 15207.800000000003
 y_12_3 one_12 1
 y_12_3 grow 1
 y_12_3 user_1004 3
 y_12_3 rescale 1
 y_12_4 obj -7811.6000000000058
 y_12_4 one_12 1
 y_12_4 grow 2
 y_12_4 user_1004 4
 y_12_4 rescale 1
 y_12_5 obj -28260.993908872319
 y_12_5 one_12 1
 y_12_5 grow 3
 y_12_5 user_1004 5
 y_12_5 rescale 1
 y_12_6 obj -48710.387817744617
 y_12_6 one_12 1
 y_12_6 grow 4
 y_12_6 user_1004 6
 y_12_6 rescale 1
 y_12_7 obj -69159.781726616944
 y_12_7 one_12 1
 y_12_7 grow 5
 y_12_7 user_1004 7
 y_12_7 rescale 1
 y_12_8 obj -89609.175635489242
 y_12_8 one_12 1
 y_12_8 grow 6
 y_12_8 user_1004 8
 y_12_8 rescale 1
 y_13_0 obj 485818.80000000005
 y_13_0 one_13 1
 y_13_0 rescale 1
 y_13_1 obj 428382.60000000003
 y_13_1 one_13 1
 y_13_1 user_1001 1
 y_13_1 rescale 1
 y_13_2 obj 369351.80000000005
 y_13_2 one_13 1
 y_13_2 user_1001 2
 y_13_2 rescale 1
 y_13_3 obj 315129.80000000005
 y_13_3 one_13 1
 y_13_3 user_1001 3
 y_13_3 rescale 1
 y_13_4 obj 264087.80000000005
 y_13_4 one_13 1
 y_13_4 user_1001 4
 y_13_4 rescale 1
 y_13_5 obj 218308.30000000005
 y_13_5 one_13 1
 y_13_5 user_1001 5
 y_13_5 rescale 1
 y_13_6 obj 172528.80000000005
 y_13_6 one_13 1
 y_13_6 user_1001 6
 y_13_6 rescale 1
 y_13_7 obj 126749.30000000005
 y_13_7 one_13 1
 y_13_7 user_1001 7
 y_13_7 rescale 1
 y_13_8 obj -404849
 y_13_8 one_13 1
 y_13_8 user_1001 8
 y_13_9 obj 1322141.4476666667
 y_13_9 one_13 1
 y_13_9 grow 1
 y_13_9 user_1001 9
 y_13_9 rescale 1
 y_13_10 obj 1280346.6143333332
 y_13_10 one_13 1
 y_13_10 grow 2
 y_13_10 user_1001 10
 y_13_10 rescale 1
 y_13_11 obj 1238551.781
 y_13_11 one_13 1
 y_13_11 grow 3
 y_13_11 user_1001 11
 y_13_11 rescale 1
 y_13_12 obj 1196756.9476666665
 y_13_12 one_13 1
 y_13_12 grow 4
 y_13_12 user_1001 12
 y_13_12 rescale 1
 y_13_13 obj 1154962.1143333334
 y_13_13 one_13 1
 y_13_13 grow 5
 y_13_13 user_1001 13
 y_13_13 rescale 1
 y_13_14 obj 1113167.281
 y_13_14 one_13 1
 y_13_14 grow 6
 y_13_14 user_1001 14
 y_13_14 rescale 1
 y_13_15 obj 1067120.781
 y_13_15 one_13 1
 y_13_15 grow 7
 y_13_15 user_1001 15
 y_13_15 rescale 1
 y_13_16 obj 1021074.281
 y_13_16 one_13 1
 y_13_16 grow 8
 y_13_16 user_1001 16
 y_13_16 rescale 1
 y_14_0 obj 33972
 y_14_0 one_14 1
 y_14_0 rescale 1
 y_14_1 obj -28310
 y_14_1 one_14 1
 y_14_1 user_1032 1
 y_14_2 obj -5662
 y_14_2 one_14 1
 y_14_2 grow 1
 y_14_2 user_1032 2
 y_14_2 rescale 1
 y_14_3 obj -33972
 y_14_3 one_14 1
 y_14_3 grow 2
 y_14_3 user_1032 3
 y_14_3 rescale 1
 y_14_4 obj -62282
 y_14_4 one_14 1
 y_14_4 grow 3
 y_14_4 user_1032 4
 y_14_4 rescale 1
 y_14_5 obj -90592
 y_14_5 one_14 1
 y_14_5 grow 4
 y_14_5 user_1032 5
 y_14_5 rescale 1
 y_14_6 obj -118902
 y_14_6 one_14 1
 y_14_6 grow 5
 y_14_6 user_1032 6
 y_14_6 rescale 1
 y_14_7 obj -147212
 y_14_7 one_14 1
 y_14_7 grow 6
 y_14_7 user_1032 7
 y_14_7 rescale 1
 y_14_8 obj -175522
 y_14_8 one_14 1
 y_14_8 grow 7
 y_14_8 user_1032 8
 y_14_8 rescale 1
 y_15_0 obj 23762.208
 y_15_0 one_15 1
 y_15_0 rescale 1
 y_15_1 obj -19801.84
 y_15_1 one_15 1
 y_15_1 user_1004 1
 y_15_2 obj -2388.2880000000005
 y_15_2 one_15 1
 y_15_2 grow 1
 y_15_2 user_1004 2
 y_15_2 rescale 1
 y_15_3 obj -21855.288000000008
 y_15_3 one_15 1
 y_15_3 grow 2
 y_15_3 user_1004 3
 y_15_3 rescale 1
 y_15_4 obj -41322.288000000008
 y_15_4 one_15 1
 y_15_4 grow 3
 y_15_4 user_1004 4
 y_15_4 rescale 1
 y_15_5 obj -61345.587999999996
 y_15_5 one_15 1
 y_15_5 grow 4
 y_15_5 user_1004 5
 y_15_5 rescale 1
 y_15_6 obj -81368.888
 y_15_6 one_15 1
 y_15_6 grow 5
 y_15_6 user_1004 6
 y_15_6 rescale 1
 y_15_7 obj -101392.188
 y_15_7 one_15 1
 y_15_7 grow 6
 y_15_7 user_1004 7
 y_15_7 rescale 1
 y_15_8 obj -121415.48799999998
 y_15_8 one_15 1
 y_15_8 grow 7
 y_15_8 user_1004 8
 y_15_8 rescale 1
 y_15_9 obj -139262.88799999998
 y_15_9 one_15 1
 y_15_9 grow 8
 y_15_9 user_1004 9
 y_15_9 rescale 1
 y_15_10 obj -157110.288
 y_15_10 one_15 1
 y_15_10 grow 9
 y_15_10 user_1004 10
 y_15_10 rescale 1
 y_15_11 obj -174957.688
 y_15_11 one_15 1
 y_15_11 grow 10
 y_15_11 user_1004 11
 y_15_11 rescale 1
 y_15_12 obj -192805.088
 y_15_12 one_15 1
 y_15_12 grow 11
 y_15_12 user_1004 12
 y_15_12 rescale 1
 y_15_13 obj -210652.488
 y_15_13 one_15 1
 y_15_13 grow 12
 y_15_13 user_1004 13
 y_15_13 rescale 1
 y_15_14 obj -228499.888
 y_15_14 one_15 1
 y_15_14 grow 13
 y_15_14 user_1004 14
 y_15_14 rescale 1
 y_15_15 obj -246347.28799999997
 y_15_15 one_15 1
 y_15_15 grow 14
 y_15_15 user_1004 15
 y_15_15 rescale 1
 y_15_16 obj -264194.688
 y_15_16 one_15 1
 y_15_16 grow 15
 y_15_16 user_1004 16
 y_15_16 rescale 1
 y_16_0 obj 36010.8
 y_16_0 one_16 1
 y_16_0 rescale 1
 y_16_1 obj 19769.4
 y_16_1 one_16 1
 y_16_1 user_1010 1
 y_16_1 rescale 1
 y_16_2 obj -30009
 y_16_2 one_16 1
 y_16_2 user_1010 2
 y_16_3 obj 12969.331403812008
 y_16_3 one_16 1
 y_16_3 grow 1
 y_16_3 user_1010 3
 y_16_3 rescale 1
 y_16_4 obj 1931.4628076240188
 y_16_4 one_16 1
 y_16_4 grow 2
 y_16_4 user_1010 4
 y_16_4 rescale 1
 y_16_5 obj -5644.58172784061
 y_16_5 one_16 1
 y_16_5 grow 3
 y_16_5 user_1010 5
 y_16_5 rescale 1
 y_16_6 obj -13220.626263305232
 y_16_6 one_16 1
 y_16_6 grow 4
 y_16_6 user_1010 6
 y_16_6 rescale 1
 y_16_7 obj -20796.670798769854
 y_16_7 one_16 1
 y_16_7 grow 5
 y_16_7 user_1010 7
 y_16_7 rescale 1
 y_16_8 obj -28372.715334234475
 y_16_8 one_16 1
 y_16_8 grow 6
 y_16_8 user_1010 8
 y_16_8 rescale 1
 y_16_9 obj -32597.853007467849
 y_16_9 one_16 1
 y_16_9 grow 7
 y_16_9 user_1010 9
 y_16_9 rescale 1
 y_16_10 obj -36822.990680701208
 y_16_10 one_16 1
 y_16_10 grow 8
 y_16_10 user_1010 10
 y_16_10 rescale 1
 y_16_11 obj -41048.128353934568
 y_16_11 one_16 1
 y_16_11 grow 9
 y_16_11 user_1010 11
 y_16_11 rescale 1
 y_16_12 obj -45273.266027167942
 y_16_12 one_16 1
 y_16_12 grow 10
 y_16_12 user_1010 12
 y_16_12 rescale 1
 y_16_13 obj -49498.403700401315
 y_16_13 one_16 1
 y_16_13 grow 11
 y_16_13 user_1010 13
 y_16_13 rescale 1
 y_16_14 obj -53723.54137363466
 y_16_14 one_16 1
 y_16_14 grow 12
 y_16_14 user_1010 14
 y_16_14 rescale 1
 y_16_15 obj -57948.679046868019
 y_16_15 one_16 1
 y_16_15 grow 13
 y_16_15 user_1010 15
 y_16_15 rescale 1
 y_16_16 obj -62173.816720101393
 y_16_16 one_16 1
 y_16_16 grow 14
 y_16_16 user_1010 16
 y_16_16 rescale 1
 y_17_0 obj 21057.36
 y_17_0 one_17 1
 y_17_0 rescale 1
 y_17_1 obj -17547.8
 y_17_1 one_17 1
 y_17_1 user_1004 1
 y_17_2 obj -4347.760000000002
 y_17_2 one_17 1
 y_17_2 grow 1
 y_17_2 user_1004 2
 y_17_2 rescale 1
 y_17_3 obj -25340.36
 y_17_3 one_17 1
 y_17_3 grow 2
 y_17_3 user_1004 3
 y_17_3 rescale 1
 y_17_4 obj -45404.96
 y_17_4 one_17 1
 y_17_4 grow 3
 y_17_4 user_1004 4
 y_17_4 rescale 1
 y_17_5 obj -65429.71
 y_17_5 one_17 1
 y_17_5 grow 4
 y_17_5 user_1004 5
 y_17_5 rescale 1
 y_17_6 obj -85454.459999999992
 y_17_6 one_17 1
 y_17_6 grow 5
 y_17_6 user_1004 6
 y_17_6 rescale 1
 y_17_7 obj -105479.20999999999
 y_17_7 one_17 1
 y_17_7 grow 6
 y_17_7 user_1004 7
 y_17_7 rescale 1
 y_17_8 obj -125503.95999999999
 y_17_8 one_17 1
 y_17_8 grow 7
 y_17_8 user_1004 8
 y_17_8 rescale 1
 y_17_9 obj -143344.96
 y_17_9 one_17 1
 y_17_9 grow 8
 y_17_9 user_1004 9
 y_17_9 rescale 1
 y_17_10 obj -161185.96
 y_17_10 one_17 1
 y_17_10 grow 9
 y_17_10 user_1004 10
 y_17_10 rescale 1
 y_17_11 obj -179026.96
 y_17_11 one_17 1
 y_17_11 grow 10
 y_17_11 user_1004 11
 y_17_11 rescale 1
 y_17_12 obj -196867.96
 y_17_12 one_17 1
 y_17_12 grow 11
 y_17_12 user_1004 12
 y_17_12 rescale 1
 y_17_13 obj -214708.96
 y_17_13 one_17 1
 y_17_13 grow 12
 y_17_13 user_1004 13
 y_17_13 rescale 1
 y_17_14 obj -232549.96
 y_17_14 one_17 1
 y_17_14 grow 13
 y_17_14 user_1004 14
 y_17_14 rescale 1
 y_17_15 obj -250390.96
 y_17_15 one_17 1
 y_17_15 grow 14
 y_17_15 user_1004 15
 y_17_15 rescale 1
 y_17_16 obj -268231.96
 y_17_16 one_17 1
 y_17_16 grow 15
 y_17_16 user_1004 16
 y_17_16 rescale 1
 y_18_0 obj 244471.19999999998
 y_18_0 one_18 1
 y_18_0 rescale 1
 y_18_1 obj 216160.89999999997
 y_18_1 one_18 1
 y_18_1 user_1010 1
 y_18_1 rescale 1
 y_18_2 obj 191772.47499999998
 y_18_2 one_18 1
 y_18_2 user_1010 2
 y_18_2 rescale 1
 y_18_3 obj 167384.05
 y_18_3 one_18 1
 y_18_3 user_1010 3
 y_18_3 rescale 1
 y_18_4 obj 142995.625
 y_18_4 one_18 1
 y_18_4 user_1010 4
 y_18_4 rescale 1
 y_18_5 obj 118607.19999999998
 y_18_5 one_18 1
 y_18_5 user_1010 5
 y_18_5 rescale 1
 y_18_6 obj 92653.199999999983
 y_18_6 one_18 1
 y_18_6 user_1010 6
 y_18_6 rescale 1
 y_18_7 obj 66699.200000000012
 y_18_7 one_18 1
 y_18_7 user_1010 7
 y_18_7 rescale 1
 y_18_8 obj -203726
 y_18_8 one_18 1
 y_18_8 user_1010 8
 y_19_0 one_19 1
 y_19_1 obj -28310.2
 y_19_1 one_19 1
 y_19_1 grow 1
 y_19_1 user_1023 1
 y_19_1 rescale 1
 y_19_2 obj -56620.4
 y_19_2 one_19 1
 y_19_2 grow 2
 y_19_2 user_1023 2
 y_19_2 rescale 1
 y_19_3 obj -84930.599999999991
 y_19_3 one_19 1
 y_19_3 grow 3
 y_19_3 user_1023 3
 y_19_3 rescale 1
 y_19_4 obj -113240.80000000002
 y_19_4 one_19 1
 y_19_4 grow 4
 y_19_4 user_1023 4
 y_19_4 rescale 1
 y_19_5 obj -141551
 y_19_5 one_19 1
 y_19_5 grow 5
 y_19_5 user_1023 5
 y_19_5 rescale 1
 y_19_6 obj -169861.19999999998
 y_19_6 one_19 1
 y_19_6 grow 6
 y_19_6 user_1023 6
 y_19_6 rescale 1
 y_19_7 obj -198171.40000000002
 y_19_7 one_19 1
 y_19_7 grow 7
 y_19_7 user_1023 7
 y_19_7 rescale 1
 y_19_8 obj -226481.60000000003
 y_19_8 one_19 1
 y_19_8 grow 8
 y_19_8 user_1023 8
 y_19_8 rescale 1
 y_19_9 obj -254791.8
 y_19_9 one_19 1
 y_19_9 grow 9
 y_19_9 user_1023 9
 y_19_9 rescale 1
 y_19_10 obj -283102
 y_19_10 one_19 1
 y_19_10 grow 10
 y_19_10 user_1023 10
 y_19_10 rescale 1
 y_19_11 obj -311412.2
 y_19_11 one_19 1
 y_19_11 grow 11
 y_19_11 user_1023 11
 y_19_11 rescale 1
 y_19_12 obj -339722.4
 y_19_12 one_19 1
 y_19_12 grow 12
 y_19_12 user_1023 12
 y_19_12 rescale 1
 y_19_13 obj -368032.60000000003
 y_19_13 one_19 1
 y_19_13 grow 13
 y_19_13 user_1023 13
 y_19_13 rescale 1
 y_19_14 obj -396342.8
 y_19_14 one_19 1
 y_19_14 grow 14
 y_19_14 user_1023 14
 y_19_14 rescale 1
 y_19_15 obj -424653
 y_19_15 one_19 1
 y_19_15 grow 15
 y_19_15 user_1023 15
 y_19_15 rescale 1
 y_19_16 obj -452963.2
 y_19_16 one_19 1
 y_19_16 grow 16
 y_19_16 user_1023 16
 y_19_16 rescale 1
 y_20_0 one_20 1
 y_20_1 obj -64914
 y_20_1 one_20 1
 y_20_1 grow 1
 y_20_1 user_1019 1
 y_20_1 rescale 1
 y_20_2 obj -120038
 y_20_2 one_20 1
 y_20_2 grow 2
 y_20_2 user_1019 2
 y_20_2 rescale 1
 y_20_3 obj -174911.99999999997
 y_20_3 one_20 1
 y_20_3 grow 3
 y_20_3 user_1019 3
 y_20_3 rescale 1
 y_20_4 obj -229786
 y_20_4 one_20 1
 y_20_4 grow 4
 y_20_4 user_1019 4
 y_20_4 rescale 1
 y_20_5 obj -287717.5
 y_20_5 one_20 1
 y_20_5 grow 5
 y_20_5 user_1019 5
 y_20_5 rescale 1
 y_20_6 obj -345648.99999999994
 y_20_6 one_20 1
 y_20_6 grow 6
 y_20_6 user_1019 6
 y_20_6 rescale 1
 y_20_7 obj -403580.49999999994
 y_20_7 one_20 1
 y_20_7 grow 7
 y_20_7 user_1019 7
 y_20_7 rescale 1
 y_20_8 obj -461512
 y_20_8 one_20 1
 y_20_8 grow 8
 y_20_8 user_1019 8
 y_20_8 rescale 1
 y_21_0 one_21 1
 y_21_1 obj -16228.5
 y_21_1 one_21 1
 y_21_1 grow 1
 y_21_1 user_1015 1
 y_21_1 rescale 1
 y_21_2 obj -30009.5
 y_21_2 one_21 1
 y_21_2 grow 2
 y_21_2 user_1015 2
 y_21_2 rescale 1
 y_21_3 obj -43727.999999999993
 y_21_3 one_21 1
 y_21_3 grow 3
 y_21_3 user_1015 3
 y_21_3 rescale 1
 y_21_4 obj -57446.5
 y_21_4 one_21 1
 y_21_4 grow 4
 y_21_4 user_1015 4
 y_21_4 rescale 1
 y_21_5 obj -71929.375
 y_21_5 one_21 1
 y_21_5 grow 5
 y_21_5 user_1015 5
 y_21_5 rescale 1
 y_21_6 obj -86412.249999999985
 y_21_6 one_21 1
 y_21_6 grow 6
 y_21_6 user_1015 6
 y_21_6 rescale 1
 y_21_7 obj -100895.12499999999
 y_21_7 one_21 1
 y_21_7 grow 7
 y_21_7 user_1015 7
 y_21_7 rescale 1
 y_21_8 obj -115378
 y_21_8 one_21 1
 y_21_8 grow 8
 y_21_8 user_1015 8
 y_21_8 rescale 1
 y_22_0 one_22 1
 y_22_1 obj -9899.08
 y_22_1 one_22 1
 y_22_1 grow 1
 y_22_1 user_1012 1
 y_22_1 rescale 1
 y_22_2 obj -19524.6
 y_22_2 one_22 1
 y_22_2 grow 2
 y_22_2 user_1012 2
 y_22_2 rescale 1
 y_22_3 obj -28991.199999999997
 y_22_3 one_22 1
 y_22_3 grow 3
 y_22_3 user_1012 3
 y_22_3 rescale 1
 y_22_4 obj -38457.8
 y_22_4 one_22 1
 y_22_4 grow 4
 y_22_4 user_1012 4
 y_22_4 rescale 1
 y_22_5 obj -47893.9
 y_22_5 one_22 1
 y_22_5 grow 5
 y_22_5 user_1012 5
 y_22_5 rescale 1
 y_22_6 obj -57270.733333333337
 y_22_6 one_22 1
 y_22_6 grow 6
 y_22_6 user_1012 6
 y_22_6 rescale 1
 y_22_7 obj -66647.566666666666
 y_22_7 one_22 1
 y_22_7 grow 7
 y_22_7 user_1012 7
 y_22_7 rescale 1
 y_22_8 obj -76024.4
 y_22_8 one_22 1
 y_22_8 grow 8
 y_22_8 user_1012 8
 y_22_8 rescale 1
 y_22_9 obj -85268.6
 y_22_9 one_22 1
 y_22_9 grow 9
 y_22_9 user_1012 9
 y_22_9 rescale 1
 y_22_10 obj -94512.8
 y_22_10 one_22 1
 y_22_10 grow 10
 y_22_10 user_1012 10
 y_22_10 rescale 1
 y_22_11 obj -103757
 y_22_11 one_22 1
 y_22_11 grow 11
 y_22_11 user_1012 11
 y_22_11 rescale 1
 y_22_12 obj -112693.6
 y_22_12 one_22 1
 y_22_12 grow 12
 y_22_12 user_1012 12
 y_22_12 rescale 1
 y_22_13 obj -121630.20000000001
 y_22_13 one_22 1
 y_22_13 grow 13
 y_22_13 user_1012 13
 y_22_13 rescale 1
 y_22_14 obj -130566.8
 y_22_14 one_22 1
 y_22_14 grow 14
 y_22_14 user_1012 14
 y_22_14 rescale 1
 y_22_15 obj -139503.4
 y_22_15 one_22 1
 y_22_15 grow 15
 y_22_15 user_1012 15
 y_22_15 rescale 1
 y_22_16 obj -148440
 y_22_16 one_22 1
 y_22_16 grow 16
 y_22_16 user_1012 16
 y_22_16 rescale 1
 y_22_17 obj -157126.125
 y_22_17 one_22 1
 y_22_17 grow 17
 y_22_17 user_1012 17
 y_22_17 rescale 1
 y_22_18 obj -165812.25
 y_22_18 one_22 1
 y_22_18 grow 18
 y_22_18 user_1012 18
 y_22_18 rescale 1
 y_22_19 obj -174498.375
 y_22_19 one_22 1
 y_22_19 grow 19
 y_22_19 user_1012 19
 y_22_19 rescale 1
 y_22_20 obj -183184.5
 y_22_20 one_22 1
 y_22_20 grow 20
 y_22_20 user_1012 20
 y_22_20 rescale 1
 y_23_0 obj 43021.92
 y_23_0 one_23 1
 y_23_0 rescale 1
 y_23_1 obj 25096.12
 y_23_1 one_23 1
 y_23_1 user_1004 1
 y_23_1 rescale 1
 y_23_2 obj -35851.6
 y_23_2 one_23 1
 y_23_2 user_1004 2
 y_23_3 obj 6502.4799999999959
 y_23_3 one_23 1
 y_23_3 grow 1
 y_23_3 user_1004 3
 y_23_3 rescale 1
 y_23_4 obj -11315.613333333335
 y_23_4 one_23 1
 y_23_4 grow 2
 y_23_4 user_1004 4
 y_23_4 rescale 1
 y_23_5 obj -29133.706666666672
 y_23_5 one_23 1
 y_23_5 grow 3
 y_23_5 user_1004 5
 y_23_5 rescale 1
 y_23_6 obj -46951.80000000001
 y_23_6 one_23 1
 y_23_6 grow 4
 y_23_6 user_1004 6
 y_23_6 rescale 1
 y_23_7 obj -65532.580000000009
 y_23_7 one_23 1
 y_23_7 grow 5
 y_23_7 user_1004 7
 y_23_7 rescale 1
 y_23_8 obj -84113.360000000015
 y_23_8 one_23 1
 y_23_8 grow 6
 y_23_8 user_1004 8
 y_23_8 rescale 1
 y_23_9 obj -102694.14000000001
 y_23_9 one_23 1
 y_23_9 grow 7
 y_23_9 user_1004 9
 y_23_9 rescale 1
 y_23_10 obj -121274.92000000001
 y_23_10 one_23 1
 y_23_10 grow 8
 y_23_10 user_1004 10
 y_23_10 rescale 1
 y_23_11 obj -139855.7
 y_23_11 one_23 1
 y_23_11 grow 9
 y_23_11 user_1004 11
 y_23_11 rescale 1
 y_23_12 obj -158436.48
 y_23_12 one_23 1
 y_23_12 grow 10
 y_23_12 user_1004 12
 y_23_12 rescale 1
 y_23_13 obj -177017.25999999998
 y_23_13 one_23 1
 y_23_13 grow 11
 y_23_13 user_1004 13
 y_23_13 rescale 1
 y_23_14 obj -195598.04
 y_23_14 one_23 1
 y_23_14 grow 12
 y_23_14 user_1004 14
 y_23_14 rescale 1
 y_23_15 obj -214178.82
 y_23_15 one_23 1
 y_23_15 grow 13
 y_23_15 user_1004 15
 y_23_15 rescale 1
 y_23_16 obj -232759.60000000003
 y_23_16 one_23 1
 y_23_16 grow 14
 y_23_16 user_1004 16
 y_23_16 rescale 1
 y_24_0 obj 67944.48
 y_24_0 one_24 1
 y_24_0 rescale 1
 y_24_1 obj 39634.28
 y_24_1 one_24 1
 y_24_1 user_1033 1
 y_24_1 rescale 1
 y_24_2 obj -56620.4
 y_24_2 one_24 1
 y_24_2 user_1033 2
 y_24_3 obj 16986.12000000001
 y_24_3 one_24 1
 y_24_3 grow 1
 y_24_3 user_1033 3
 y_24_3 rescale 1
 y_24_4 obj -11324.080000000016
 y_24_4 one_24 1
 y_24_4 grow 2
 y_24_4 user_1033 4
 y_24_4 rescale 1
 y_24_5 obj -39634.28
 y_24_5 one_24 1
 y_24_5 grow 3
 y_24_5 user_1033 5
 y_24_5 rescale 1
 y_24_6 obj -67944.479999999981
 y_24_6 one_24 1
 y_24_6 grow 4
 y_24_6 user_1033 6
 y_24_6 rescale 1
 y_24_7 obj -96254.680000000022
 y_24_7 one_24 1
 y_24_7 grow 5
 y_24_7 user_1033 7
 y_24_7 rescale 1
 y_24_8 obj -124564.88000000003
 y_24_8 one_24 1
 y_24_8 grow 6
 y_24_8 user_1033 8
 y_24_8 rescale 1
 y_24_9 obj -152875.08
 y_24_9 one_24 1
 y_24_9 grow 7
 y_24_9 user_1033 9
 y_24_9 rescale 1
 y_24_10 obj -181185.28
 y_24_10 one_24 1
 y_24_10 grow 8
 y_24_10 user_1033 10
 y_24_10 rescale 1
 y_24_11 obj -209495.48
 y_24_11 one_24 1
 y_24_11 grow 9
 y_24_11 user_1033 11
 y_24_11 rescale 1
 y_24_12 obj -237805.68000000002
 y_24_12 one_24 1
 y_24_12 grow 10
 y_24_12 user_1033 12
 y_24_12 rescale 1
 y_24_13 obj -266115.88
 y_24_13 one_24 1
 y_24_13 grow 11
 y_24_13 user_1033 13
 y_24_13 rescale 1
 y_24_14 obj -294426.07999999996
 y_24_14 one_24 1
 y_24_14 grow 12
 y_24_14 user_1033 14
 y_24_14 rescale 1
 y_24_15 obj -322736.28
 y_24_15 one_24 1
 y_24_15 grow 13
 y_24_15 user_1033 15
 y_24_15 rescale 1
 y_24_16 obj -351046.48
 y_24_16 one_24 1
 y_24_16 grow 14
 y_24_16 user_1033 16
 y_24_16 rescale 1
 y_25_0 obj 57340.56
 y_25_0 one_25 1
 y_25_0 rescale 1
 y_25_1 obj 33474.56
 y_25_1 one_25 1
 y_25_1 user_1004 1
 y_25_1 rescale 1
 y_25_2 obj -47783.8
 y_25_2 one_25 1
 y_25_2 user_1004 2
 y_25_3 obj 15202.139999999985
 y_25_3 one_25 1
 y_25_3 grow 1
 y_25_3 user_1004 3
 y_25_3 rescale 1
 y_25_4 obj -7822.7600000000093
 y_25_4 one_25 1
 y_25_4 grow 2
 y_25_4 user_1004 4
 y_25_4 rescale 1
 y_25_5 obj -30653.660000000003
 y_25_5 one_25 1
 y_25_5 grow 3
 y_25_5 user_1004 5
 y_25_5 rescale 1
 y_25_6 obj -53484.560000000027
 y_25_6 one_25 1
 y_25_6 grow 4
 y_25_6 user_1004 6
 y_25_6 rescale 1
 y_25_7 obj -76315.460000000021
 y_25_7 one_25 1
 y_25_7 grow 5
 y_25_7 user_1004 7
 y_25_7 rescale 1
 y_25_8 obj -99146.360000000015
 y_25_8 one_25 1
 y_25_8 grow 6
 y_25_8 user_1004 8
 y_25_8 rescale 1
 y_25_9 obj -121873.71000000002
 y_25_9 one_25 1
 y_25_9 grow 7
 y_25_9 user_1004 9
 y_25_9 rescale 1
 y_25_10 obj -144601.06000000003
 y_25_10 one_25 1
 y_25_10 grow 8
 y_25_10 user_1004 10
 y_25_10 rescale 1
 y_25_11 obj -167328.41
 y_25_11 one_25 1
 y_25_11 grow 9
 y_25_11 user_1004 11
 y_25_11 rescale 1
 y_25_12 obj -190055.75999999998
 y_25_12 one_25 1
 y_25_12 grow 10
 y_25_12 user_1004 12
 y_25_12 rescale 1
 y_25_13 obj -212783.11000000002
 y_25_13 one_25 1
 y_25_13 grow 11
 y_25_13 user_1004 13
 y_25_13 rescale 1
 y_25_14 obj -235510.46
 y_25_14 one_25 1
 y_25_14 grow 12
 y_25_14 user_1004 14
 y_25_14 rescale 1
 y_25_15 obj -258237.80999999997
 y_25_15 one_25 1
 y_25_15 grow 13
 y_25_15 user_1004 15
 y_25_15 rescale 1
 y_25_16 obj -280965.16000000003
 y_25_16 one_25 1
 y_25_16 grow 14
 y_25_16 user_1004 16
 y_25_16 rescale 1
 y_25_17 obj -303289.53500000003
 y_25_17 one_25 1
 y_25_17 grow 15
 y_25_17 user_1004 17
 y_25_17 rescale 1
 y_25_18 obj -325613.91000000003
 y_25_18 one_25 1
 y_25_18 grow 16
 y_25_18 user_1004 18
 y_25_18 rescale 1
 y_25_19 obj -347938.28500000003
 y_25_19 one_25 1
 y_25_19 grow 17
 y_25_19 user_1004 19
 y_25_19 rescale 1
 y_25_20 obj -370262.66000000003
 y_25_20 one_25 1
 y_25_20 grow 18
 y_25_20 user_1004 20
 y_25_20 rescale 1
 y_25_21 obj -392587.03500000003
 y_25_21 one_25 1
 y_25_21 grow 19
 y_25_21 user_1004 21
 y_25_21 rescale 1
 y_25_22 obj -414911.41000000003
 y_25_22 one_25 1
 y_25_22 grow 20
 y_25_22 user_1004 22
 y_25_22 rescale 1
 y_26_0 obj 104818.20000000001
 y_26_0 one_26 1
 y_26_0 rescale 1
 y_26_1 obj 75702.03333333334
 y_26_1 one_26 1
 y_26_1 user_1003 1
 y_26_1 rescale 1
 y_26_2 obj 46585.866666666676
 y_26_2 one_26 1
 y_26_2 user_1003 2
 y_26_2 rescale 1
 y_26_3 obj -87348.5
 y_26_3 one_26 1
 y_26_3 user_1003 3
 y_26_4 obj 42336.300000000017
 y_26_4 one_26 1
 y_26_4 grow 1
 y_26_4 user_1003 4
 y_26_4 rescale 1
 y_26_5 obj 16559.221312119771
 y_26_5 one_26 1
 y_26_5 grow 2
 y_26_5 user_1003 5
 y_26_5 rescale 1
 y_26_6 obj -9217.8573757604754
 y_26_6 one_26 1
 y_26_6 grow 3
 y_26_6 user_1003 6
 y_26_6 rescale 1
 y_26_7 obj -34994.936063640722
 y_26_7 one_26 1
 y_26_7 grow 4
 y_26_7 user_1003 7
 y_26_7 rescale 1
 y_26_8 obj -60772.014751520968
 y_26_8 one_26 1
 y_26_8 grow 5
 y_26_8 user_1003 8
 y_26_8 rescale 1
 y_27_0 obj 12915.96
 y_27_0 one_27 1
 y_27_0 rescale 1
 y_27_1 obj -10763.3
 y_27_1 one_27 1
 y_27_1 user_1000 1
 y_27_2 obj -529.45999999999913
 y_27_2 one_27 1
 y_27_2 grow 1
 y_27_2 user_1000 2
 y_27_2 rescale 1
 y_27_3 obj -9628.0600000000013
 y_27_3 one_27 1
 y_27_3 grow 2
 y_27_3 user_1000 3
 y_27_3 rescale 1
 y_27_4 obj -18726.66
 y_27_4 one_27 1
 y_27_4 grow 3
 y_27_4 user_1000 4
 y_27_4 rescale 1
 y_27_5 obj -28332.235000000004
 y_27_5 one_27 1
 y_27_5 grow 4
 y_27_5 user_1000 5
 y_27_5 rescale 1
 y_27_6 obj -37937.81
 y_27_6 one_27 1
 y_27_6 grow 5
 y_27_6 user_1000 6
 y_27_6 rescale 1
 y_27_7 obj -47543.384999999995
 y_27_7 one_27 1
 y_27_7 grow 6
 y_27_7 user_1000 7
 y_27_7 rescale 1
 y_27_8 obj -57148.959999999992
 y_27_8 one_27 1
 y_27_8 grow 7
 y_27_8 user_1000 8
 y_27_8 rescale 1
 y_28_0 one_28 1
 y_28_1 obj -30399
 y_28_1 one_28 1
 y_28_1 grow 1
 y_28_1 user_1023 1
 y_28_1 rescale 1
 y_28_2 obj -58930
 y_28_2 one_28 1
 y_28_2 grow 2
 y_28_2 user_1023 2
 y_28_2 rescale 1
 y_28_3 obj -86395
 y_28_3 one_28 1
 y_28_3 grow 3
 y_28_3 user_1023 3
 y_28_3 rescale 1
 y_28_4 obj -113860
 y_28_4 one_28 1
 y_28_4 grow 4
 y_28_4 user_1023 4
 y_28_4 rescale 1
 y_28_5 obj -140457
 y_28_5 one_28 1
 y_28_5 grow 5
 y_28_5 user_1023 5
 y_28_5 rescale 1
 y_28_6 obj -167054
 y_28_6 one_28 1
 y_28_6 grow 6
 y_28_6 user_1023 6
 y_28_6 rescale 1
 y_28_7 obj -193651
 y_28_7 one_28 1
 y_28_7 grow 7
 y_28_7 user_1023 7
 y_28_7 rescale 1
 y_28_8 obj -220248
 y_28_8 one_28 1
 y_28_8 grow 8
 y_28_8 user_1023 8
 y_28_8 rescale 1
 y_28_9 obj -245827.5
 y_28_9 one_28 1
 y_28_9 grow 9
 y_28_9 user_1023 9
 y_28_9 rescale 1
 y_28_10 obj -271407
 y_28_10 one_28 1
 y_28_10 grow 10
 y_28_10 user_1023 10
 y_28_10 rescale 1
 y_28_11 obj -296986.5
 y_28_11 one_28 1
 y_28_11 grow 11
 y_28_11 user_1023 11
 y_28_11 rescale 1
 y_28_12 obj -322566
 y_28_12 one_28 1
 y_28_12 grow 12
 y_28_12 user_1023 12
 y_28_12 rescale 1
 y_28_13 obj -348145.5
 y_28_13 one_28 1
 y_28_13 grow 13
 y_28_13 user_1023 13
 y_28_13 rescale 1
 y_28_14 obj -373725
 y_28_14 one_28 1
 y_28_14 grow 14
 y_28_14 user_1023 14
 y_28_14 rescale 1
 y_28_15 obj -399304.5
 y_28_15 one_28 1
 y_28_15 grow 15
 y_28_15 user_1023 15
 y_28_15 rescale 1
 y_28_16 obj -424884
 y_28_16 one_28 1
 y_28_16 grow 16
 y_28_16 user_1023 16
 y_28_16 rescale 1
 y_29_0 obj 16986.12
 y_29_0 one_29 1
 y_29_0 rescale 1
 y_29_1 obj -14155.1
 y_29_1 one_29 1
 y_29_2 obj -1961.2200000000012
 y_29_2 one_29 1
 y_29_2 grow 1
 y_29_2 rescale 1
 y_29_3 obj -14750.019999999997
 y_29_3 one_29 1
 y_29_3 grow 2
 y_29_3 rescale 1
 y_29_4 obj -27538.82
 y_29_4 one_29 1
 y_29_4 grow 3
 y_29_4 rescale 1
 y_29_5 obj -39923.570000000007
 y_29_5 one_29 1
 y_29_5 grow 4
 y_29_5 rescale 1
 y_29_6 obj -52308.32
 y_29_6 one_29 1
 y_29_6 grow 5
 y_29_6 rescale 1
 y_29_7 obj -64693.07
 y_29_7 one_29 1
 y_29_7 grow 6
 y_29_7 rescale 1
 y_29_8 obj -77077.82
 y_29_8 one_29 1
 y_29_8 grow 7
 y_29_8 rescale 1
 y_29_9 obj -88988.7575
 y_29_9 one_29 1
 y_29_9 grow 8
 y_29_9 rescale 1
 y_29_10 obj -100899.695
 y_29_10 one_29 1
 y_29_10 grow 9
 y_29_10 rescale 1
 y_29_11 obj -112810.6325
 y_29_11 one_29 1
 y_29_11 grow 10
 y_29_11 rescale 1
 y_29_12 obj -124721.57
 y_29_12 one_29 1
 y_29_12 grow 11
 y_29_12 rescale 1
 y_29_13 obj -136632.5075
 y_29_13 one_29 1
 y_29_13 grow 12
 y_29_13 rescale 1
 y_29_14 obj -148543.445
 y_29_14 one_29 1
 y_29_14 grow 13
 y_29_14 rescale 1
 y_29_15 obj -160454.3825
 y_29_15 one_29 1
 y_29_15 grow 14
 y_29_15 rescale 1
 y_29_16 obj -172365.32
 y_29_16 one_29 1
 y_29_16 grow 15
 y_29_16 rescale 1
 y_30_0 one_30 1
 y_30_1 obj -9899.05
 y_30_1 one_30 1
 y_30_1 grow 1
 y_30_1 user_1012 1
 y_30_1 rescale 1
 y_30_2 obj -19517
 y_30_2 one_30 1
 y_30_2 grow 2
 y_30_2 user_1012 2
 y_30_2 rescale 1
 y_30_3 obj -28613.1
 y_30_3 one_30 1
 y_30_3 grow 3
 y_30_3 user_1012 3
 y_30_3 rescale 1
 y_30_4 obj -37709.2
 y_30_4 one_30 1
 y_30_4 grow 4
 y_30_4 user_1012 4
 y_30_4 rescale 1
 y_30_5 obj -46517.85
 y_30_5 one_30 1
 y_30_5 grow 5
 y_30_5 user_1012 5
 y_30_5 rescale 1
 y_30_6 obj -55326.5
 y_30_6 one_30 1
 y_30_6 grow 6
 y_30_6 user_1012 6
 y_30_6 rescale 1
 y_30_7 obj -64135.15
 y_30_7 one_30 1
 y_30_7 grow 7
 y_30_7 user_1012 7
 y_30_7 rescale 1
 y_30_8 obj -72943.8
 y_30_8 one_30 1
 y_30_8 grow 8
 y_30_8 user_1012 8
 y_30_8 rescale 1
 y_30_9 obj -81415.45
 y_30_9 one_30 1
 y_30_9 grow 9
 y_30_9 user_1012 9
 y_30_9 rescale 1
 y_30_10 obj -89887.1
 y_30_10 one_30 1
 y_30_10 grow 10
 y_30_10 user_1012 10
 y_30_10 rescale 1
 y_30_11 obj -98358.75
 y_30_11 one_30 1
 y_30_11 grow 11
 y_30_11 user_1012 11
 y_30_11 rescale 1
 y_30_12 obj -106830.40000000001
 y_30_12 one_30 1
 y_30_12 grow 12
 y_30_12 user_1012 12
 y_30_12 rescale 1
 y_30_13 obj -115302.05000000002
 y_30_13 one_30 1
 y_30_13 grow 13
 y_30_13 user_1012 13
 y_30_13 rescale 1
 y_30_14 obj -123773.70000000001
 y_30_14 one_30 1
 y_30_14 grow 14
 y_30_14 user_1012 14
 y_30_14 rescale 1
 y_30_15 obj -132245.35
 y_30_15 one_30 1
 y_30_15 grow 15
 y_30_15 user_1012 15
 y_30_15 rescale 1
 y_30_16 obj -140717
 y_30_16 one_30 1
 y_30_16 grow 16
 y_30_16 user_1012 16
 y_30_16 rescale 1
 y_30_17 obj -148951.1875
 y_30_17 one_30 1
 y_30_17 grow 17
 y_30_17 user_1012 17
 y_30_17 rescale 1
 y_30_18 obj -157185.375
 y_30_18 one_30 1
 y_30_18 grow 18
 y_30_18 user_1012 18
 y_30_18 rescale 1
 y_30_19 obj -165419.56250000003
 y_30_19 one_30 1
 y_30_19 grow 19
 y_30_19 user_1012 19
 y_30_19 rescale 1
 y_30_20 obj -173653.75
 y_30_20 one_30 1
 y_30_20 grow 20
 y_30_20 user_1012 20
 y_30_20 rescale 1
 y_31_0 one_31 1
 y_31_1 obj -28310.2
 y_31_1 one_31 1
 y_31_1 grow 1
 y_31_1 user_1023 1
 y_31_1 rescale 1
 y_31_2 obj -56620.4
 y_31_2 one_31 1
 y_31_2 grow 2
 y_31_2 user_1023 2
 y_31_2 rescale 1
 y_31_3 obj -84930.599999999991
 y_31_3 one_31 1
 y_31_3 grow 3
 y_31_3 user_1023 3
 y_31_3 rescale 1
 y_31_4 obj -113240.80000000002
 y_31_4 one_31 1
 y_31_4 grow 4
 y_31_4 user_1023 4
 y_31_4 rescale 1
 y_31_5 obj -141551
 y_31_5 one_31 1
 y_31_5 grow 5
 y_31_5 user_1023 5
 y_31_5 rescale 1
 y_31_6 obj -169861.19999999998
 y_31_6 one_31 1
 y_31_6 grow 6
 y_31_6 user_1023 6
 y_31_6 rescale 1
 y_31_7 obj -198171.40000000002
 y_31_7 one_31 1
 y_31_7 grow 7
 y_31_7 user_1023 7
 y_31_7 rescale 1
 y_31_8 obj -226481.60000000003
 y_31_8 one_31 1
 y_31_8 grow 8
 y_31_8 user_1023 8
 y_31_8 rescale 1
 y_31_9 obj -254791.8
 y_31_9 one_31 1
 y_31_9 grow 9
 y_31_9 user_1023 9
 y_31_9 rescale 1
 y_31_10 obj -283102
 y_31_10 one_31 1
 y_31_10 grow 10
 y_31_10 user_1023 10
 y_31_10 rescale 1
 y_31_11 obj -311412.2
 y_31_11 one_31 1
 y_31_11 grow 11
 y_31_11 user_1023 11
 y_31_11 rescale 1
 y_31_12 obj -339722.4
 y_31_12 one_31 1
 y_31_12 grow 12
 y_31_12 user_1023 12
 y_31_12 rescale 1
 y_31_13 obj -368032.60000000003
 y_31_13 one_31 1
 y_31_13 grow 13
 y_31_13 user_1023 13
 y_31_13 rescale 1
 y_31_14 obj -396342.8
 y_31_14 one_31 1
 y_31_14 grow 14
 y_31_14 user_1023 14
 y_31_14 rescale 1
 y_31_15 obj -424653
 y_31_15 one_31 1
 y_31_15 grow 15
 y_31_15 user_1023 15
 y_31_15 rescale 1
 y_31_16 obj -452963.2
 y_31_16 one_31 1
 y_31_16 grow 16
 y_31_16 user_1023 16
 y_31_16 rescale 1
 y_32_0 obj 460876.4065
 y_32_0 one_32 1
 y_32_0 rescale 1
 y_32_1 obj 428683.0565
 y_32_1 one_32 1
 y_32_1 rescale 1
 y_32_2 obj 395595.9065
 y_32_2 one_32 1
 y_32_2 rescale 1
 y_32_3 obj 375479.4065
 y_32_3 one_32 1
 y_32_3 rescale 1
 y_32_4 obj 355543.9065
 y_32_4 one_32 1
 y_32_4 rescale 1
 y_32_5 obj 332245.4065
 y_32_5 one_32 1
 y_32_5 rescale 1
 y_32_6 obj 308946.9065
 y_32_6 one_32 1
 y_32_6 rescale 1
 y_32_7 obj 285648.40649999992
 y_32_7 one_32 1
 y_32_7 rescale 1
 y_32_8 obj 262349.9065
 y_32_8 one_32 1
 y_32_8 rescale 1
 y_32_9 obj 240794.62078571424
 y_32_9 one_32 1
 y_32_9 rescale 1
 y_32_10 obj 219239.33507142856
 y_32_10 one_32 1
 y_32_10 rescale 1
 y_32_11 obj 197684.04935714282
 y_32_11 one_32 1
 y_32_11 rescale 1
 y_32_12 obj 176128.76364285714
 y_32_12 one_32 1
 y_32_12 rescale 1
 y_32_13 obj 154573.4779285714
 y_32_13 one_32 1
 y_32_13 rescale 1
 y_32_14 obj 133018.19221428572
 y_32_14 one_32 1
 y_32_14 rescale 1
 y_32_15 obj -349413.5
 y_32_15 one_32 1
 y_32_16 obj 256600.79999999993
 y_32_16 one_32 1
 y_32_16 grow 1
 y_32_16 rescale 1
 y_33_0 obj 5939.2559999999994
 y_33_0 one_33 1
 y_33_0 rescale 1
 y_33_1 obj -4949.38
 y_33_1 one_33 1
 y_33_2 obj -243.41599999999926
 y_33_2 one_33 1
 y_33_2 grow 1
 y_33_2 rescale 1
 y_33_3 obj -4427.3159999999989
 y_33_3 one_33 1
 y_33_3 grow 2
 y_33_3 rescale 1
 y_33_4 obj -8611.2159999999985
 y_33_4 one_33 1
 y_33_4 grow 3
 y_33_4 rescale 1
 y_33_5 obj -13028.203499999998
 y_33_5 one_33 1
 y_33_5 grow 4
 y_33_5 rescale 1
 y_33_6 obj -17445.191
 y_33_6 one_33 1
 y_33_6 grow 5
 y_33_6 rescale 1
 y_33_7 obj -21862.1785
 y_33_7 one_33 1
 y_33_7 grow 6
 y_33_7 rescale 1
 y_33_8 obj -26279.165999999997
 y_33_8 one_33 1
 y_33_8 grow 7
 y_33_8 rescale 1
 y_34_0 obj 486319.19999999995
 y_34_0 one_34 1
 y_34_0 rescale 1
 y_34_1 obj 428424.05714285711
 y_34_1 one_34 1
 y_34_1 user_1004 1
 y_34_1 rescale 1
 y_34_2 obj 370528.91428571427
 y_34_2 one_34 1
 y_34_2 user_1004 2
 y_34_2 rescale 1
 y_34_3 obj 312633.77142857137
 y_34_3 one_34 1
 y_34_3 user_1004 3
 y_34_3 rescale 1
 y_34_4 obj 254738.62857142853
 y_34_4 one_34 1
 y_34_4 user_1004 4
 y_34_4 rescale 1
 y_34_5 obj 196843.48571428569
 y_34_5 one_34 1
 y_34_5 user_1004 5
 y_34_5 rescale 1
 y_34_6 obj 138948.34285714279
 y_34_6 one_34 1
 y_34_6 user_1004 6
 y_34_6 rescale 1
 y_34_7 obj -405266
 y_34_7 one_34 1
 y_34_7 user_1004 7
 y_34_8 obj 266317.65714285709
 y_34_8 one_34 1
 y_34_8 grow 1
 y_34_8 user_1004 8
 y_34_8 rescale 1
 y_34_9 obj 208422.51428571425
 y_34_9 one_34 1
 y_34_9 grow 2
 y_34_9 user_1004 9
 y_34_9 rescale 1
 y_34_10 obj 150527.37142857141
 y_34_10 one_34 1
 y_34_10 grow 3
 y_34_10 user_1004 10
 y_34_10 rescale 1
 y_34_11 obj 92632.228571428568
 y_34_11 one_34 1
 y_34_11 grow 4
 y_34_11 user_1004 11
 y_34_11 rescale 1
 y_34_12 obj 34737.085714285611
 y_34_12 one_34 1
 y_34_12 grow 5
 y_34_12 user_1004 12
 y_34_12 rescale 1
 y_34_13 obj -23158.057142857113
 y_34_13 one_34 1
 y_34_13 grow 6
 y_34_13 user_1004 13
 y_34_13 rescale 1
 y_34_14 obj -81053.20000000007
 y_34_14 one_34 1
 y_34_14 grow 7
 y_34_14 user_1004 14
 y_34_14 rescale 1
 y_34_15 obj -138948.34285714303
 y_34_15 one_34 1
 y_34_15 grow 8
 y_34_15 user_1004 15
 y_34_15 rescale 1
 y_34_16 obj -196843.48571428575
 y_34_16 one_34 1
 y_34_16 grow 9
 y_34_16 user_1004 16
 y_34_16 rescale 1
 y_35_0 obj 28628.159999999996
 y_35_0 one_35 1
 y_35_0 rescale 1
 y_35_1 obj -23856.8
 y_35_1 one_35 1
 y_35_1 user_1004 1
 y_35_2 obj -1958.3600000000079
 y_35_2 one_35 1
 y_35_2 grow 1
 y_35_2 user_1004 2
 y_35_2 rescale 1
 y_35_3 obj -26425.05999999999
 y_35_3 one_35 1
 y_35_3 grow 2
 y_35_3 user_1004 3
 y_35_3 rescale 1
 y_35_4 obj -50891.76
 y_35_4 one_35 1
 y_35_4 grow 3
 y_35_4 user_1004 4
 y_35_4 rescale 1
 y_35_5 obj -73723.760000000009
 y_35_5 one_35 1
 y_35_5 grow 4
 y_35_5 user_1004 5
 y_35_5 rescale 1
 y_35_6 obj -96555.760000000009
 y_35_6 one_35 1
 y_35_6 grow 5
 y_35_6 user_1004 6
 y_35_6 rescale 1
 y_35_7 obj -119387.76000000004
 y_35_7 one_35 1
 y_35_7 grow 6
 y_35_7 user_1004 7
 y_35_7 rescale 1
 y_35_8 obj -142219.76000000007
 y_35_8 one_35 1
 y_35_8 grow 7
 y_35_8 user_1004 8
 y_35_8 rescale 1
 y_36_0 obj 276903.6
 y_36_0 one_36 1
 y_36_0 rescale 1
 y_36_1 obj 248059.47499999998
 y_36_1 one_36 1
 y_36_1 user_1016 1
 y_36_1 rescale 1
 y_36_2 obj 219215.34999999998
 y_36_2 one_36 1
 y_36_2 user_1016 2
 y_36_2 rescale 1
 y_36_3 obj 190371.22499999998
 y_36_3 one_36 1
 y_36_3 user_1016 3
 y_36_3 rescale 1
 y_36_4 obj 161527.09999999998
 y_36_4 one_36 1
 y_36_4 user_1016 4
 y_36_4 rescale 1
 y_36_5 obj 132682.97499999998
 y_36_5 one_36 1
 y_36_5 user_1016 5
 y_36_5 rescale 1
 y_36_6 obj 103838.84999999998
 y_36_6 one_36 1
 y_36_6 user_1016 6
 y_36_6 rescale 1
 y_36_7 obj 74994.724999999977
 y_36_7 one_36 1
 y_36_7 user_1016 7
 y_36_7 rescale 1
 y_36_8 obj -230753
 y_36_8 one_36 1
 y_36_8 user_1016 8
 y_37_0 obj 495526.80000000005
 y_37_0 one_37 1
 y_37_0 rescale 1
 y_37_1 obj 467997.53333333338
 y_37_1 one_37 1
 y_37_1 user_1000 1
 y_37_1 rescale 1
 y_37_2 obj 440468.26666666672
 y_37_2 one_37 1
 y_37_2 user_1000 2
 y_37_2 rescale 1
 y_37_3 obj 412939.00000000006
 y_37_3 one_37 1
 y_37_3 user_1000 3
 y_37_3 rescale 1
 y_37_4 obj 385409.7333333334
 y_37_4 one_37 1
 y_37_4 user_1000 4
 y_37_4 rescale 1
 y_37_5 obj 357880.46666666667
 y_37_5 one_37 1
 y_37_5 user_1000 5
 y_37_5 rescale 1
 y_37_6 obj 330351.20000000007
 y_37_6 one_37 1
 y_37_6 user_1000 6
 y_37_6 rescale 1
 y_37_7 obj 302821.93333333335
 y_37_7 one_37 1
 y_37_7 user_1000 7
 y_37_7 rescale 1
 y_37_8 obj 275292.66666666674
 y_37_8 one_37 1
 y_37_8 user_1000 8
 y_37_8 rescale 1
 y_37_9 obj 247763.40000000002
 y_37_9 one_37 1
 y_37_9 user_1000 9
 y_37_9 rescale 1
 y_37_10 obj 220234.13333333336
 y_37_10 one_37 1
 y_37_10 user_1000 10
 y_37_10 rescale 1
 y_37_11 obj 192704.8666666667
 y_37_11 one_37 1
 y_37_11 user_1000 11
 y_37_11 rescale 1
 y_37_12 obj 165175.60000000003
 y_37_12 one_37 1
 y_37_12 user_1000 12
 y_37_12 rescale 1
 y_37_13 obj 137646.33333333337
 y_37_13 one_37 1
 y_37_13 user_1000 13
 y_37_13 rescale 1
 y_37_14 obj 110117.06666666671
 y_37_14 one_37 1
 y_37_14 user_1000 14
 y_37_14 rescale 1
 y_37_15 obj -412939
 y_37_15 one_37 1
 y_37_15 user_1000 15
 y_37_16 obj 302821.93333333341
 y_37_16 one_37 1
 y_37_16 grow 1
 y_37_16 user_1000 16
 y_37_16 rescale 1
 y_38_0 obj 104949.12
 y_38_0 one_38 1
 y_38_0 rescale 1
 y_38_1 obj 74110.319999999992
 y_38_1 one_38 1
 y_38_1 user_1001 1
 y_38_1 rescale 1
 y_38_2 obj 44928.719999999994
 y_38_2 one_38 1
 y_38_2 user_1001 2
 y_38_2 rescale 1
 y_38_3 obj -87457.6
 y_38_3 one_38 1
 y_38_3 user_1001 3
 y_38_4 obj 241698.46161177172
 y_38_4 one_38 1
 y_38_4 grow 1
 y_38_4 user_1001 4
 y_38_4 rescale 1
 y_38_5 obj 217875.64962354346
 y_38_5 one_38 1
 y_38_5 grow 2
 y_38_5 user_1001 5
 y_38_5 rescale 1
 y_38_6 obj 194052.83763531517
 y_38_6 one_38 1
 y_38_6 grow 3
 y_38_6 user_1001 6
 y_38_6 rescale 1
 y_38_7 obj 170230.02564708691
 y_38_7 one_38 1
 y_38_7 grow 4
 y_38_7 user_1001 7
 y_38_7 rescale 1
 y_38_8 obj 146407.21365885861
 y_38_8 one_38 1
 y_38_8 grow 5
 y_38_8 user_1001 8
 y_38_8 rescale 1
 y_39_0 obj 84969.36
 y_39_0 one_39 1
 y_39_0 rescale 1
 y_39_1 obj 61103.36
 y_39_1 one_39 1
 y_39_1 user_1004 1
 y_39_1 rescale 1
 y_39_2 obj 37185.36
 y_39_2 one_39 1
 y_39_2 user_1004 2
 y_39_2 rescale 1
 y_39_3 obj -70807.8
 y_39_3 one_39 1
 y_39_3 user_1004 3
 y_39_4 obj 33621.64
 y_39_4 one_39 1
 y_39_4 grow 1
 y_39_4 user_1004 4
 y_39_4 rescale 1
 y_39_5 obj 10791.039999999994
 y_39_5 one_39 1
 y_39_5 grow 2
 y_39_5 user_1004 5
 y_39_5 rescale 1
 y_39_6 obj -12039.560000000012
 y_39_6 one_39 1
 y_39_6 grow 3
 y_39_6 user_1004 6
 y_39_6 rescale 1
 y_39_7 obj -34870.160000000018
 y_39_7 one_39 1
 y_39_7 grow 4
 y_39_7 user_1004 7
 y_39_7 rescale 1
 y_39_8 obj -57700.759999999995
 y_39_8 one_39 1
 y_39_8 grow 5
 y_39_8 user_1004 8
 y_39_8 rescale 1
 y_39_9 obj -80427.910000000018
 y_39_9 one_39 1
 y_39_9 grow 6
 y_39_9 user_1004 9
 y_39_9 rescale 1
 y_39_10 obj -103155.06000000001
 y_39_10 one_39 1
 y_39_10 grow 7
 y_39_10 user_1004 10
 y_39_10 rescale 1
 y_39_11 obj -125882.21
 y_39_11 one_39 1
 y_39_11 grow 8
 y_39_11 user_1004 11
 y_39_11 rescale 1
 y_39_12 obj -148609.36
 y_39_12 one_39 1
 y_39_12 grow 9
 y_39_12 user_1004 12
 y_39_12 rescale 1
 y_39_13 obj -171336.51
 y_39_13 one_39 1
 y_39_13 grow 10
 y_39_13 user_1004 13
 y_39_13 rescale 1
 y_39_14 obj -194063.65999999997
 y_39_14 one_39 1
 y_39_14 grow 11
 y_39_14 user_1004 14
 y_39_14 rescale 1
 y_39_15 obj -216790.81
 y_39_15 one_39 1
 y_39_15 grow 12
 y_39_15 user_1004 15
 y_39_15 rescale 1
 y_39_16 obj -239517.96000000002
 y_39_16 one_39 1
 y_39_16 grow 13
 y_39_16 user_1004 16
 y_39_16 rescale 1
 y_39_17 obj -261842.08499999996
 y_39_17 one_39 1
 y_39_17 grow 14
 y_39_17 user_1004 17
 y_39_17 rescale 1
 y_39_18 obj -284166.20999999996
 y_39_18 one_39 1
 y_39_18 grow 15
 y_39_18 user_1004 18
 y_39_18 rescale 1
 y_39_19 obj -306490.335
 y_39_19 one_39 1
 y_39_19 grow 16
 y_39_19 user_1004 19
 y_39_19 rescale 1
 y_39_20 obj -328814.46
 y_39_20 one_39 1
 y_39_20 grow 17
 y_39_20 user_1004 20
 y_39_20 rescale 1
 y_39_21 obj -351138.585
 y_39_21 one_39 1
 y_39_21 grow 18
 y_39_21 user_1004 21
 y_39_21 rescale 1
 y_39_22 obj -373462.71
 y_39_22 one_39 1
 y_39_22 grow 19
 y_39_22 user_1004 22
 y_39_22 rescale 1
 y_39_23 obj -395786.835
 y_39_23 one_39 1
 y_39_23 grow 20
 y_39_23 user_1004 23
 y_39_23 rescale 1
 y_40_0 obj 921767.04
 y_40_0 one_40 1
 y_40_0 rescale 1
 y_40_1 obj 836926.44
 y_40_1 one_40 1
 y_40_1 user_1023 1
 y_40_1 rescale 1
 y_40_2 obj 761532.84
 y_40_2 one_40 1
 y_40_2 user_1023 2
 y_40_2 rescale 1
 y_40_3 obj 693060.24
 y_40_3 one_40 1
 y_40_3 user_1023 3
 y_40_3 rescale 1
 y_40_4 obj 617336.04
 y_40_4 one_40 1
 y_40_4 user_1023 4
 y_40_4 rescale 1
 y_40_5 obj 541797.54
 y_40_5 one_40 1
 y_40_5 user_1023 5
 y_40_5 rescale 1
 y_40_6 obj 466259.04
 y_40_6 one_40 1
 y_40_6 user_1023 6
 y_40_6 rescale 1
 y_40_7 obj -533430
 y_40_7 one_40 1
 y_40_7 user_1023 7
 y_40_8 obj -438662.55000000005
 y_40_8 one_40 1
 y_40_8 grow 1
 y_40_8 user_1023 8
 y_40_8 rescale 1
 y_40_9 obj -509123.92500000005
 y_40_9 one_40 1
 y_40_9 grow 2
 y_40_9 user_1023 9
 y_40_9 rescale 1
 y_40_10 obj -579585.3
 y_40_10 one_40 1
 y_40_10 grow 3
 y_40_10 user_1023 10
 y_40_10 rescale 1
 y_40_11 obj -650046.675
 y_40_11 one_40 1
 y_40_11 grow 4
 y_40_11 user_1023 11
 y_40_11 rescale 1
 y_40_12 obj -720508.05
 y_40_12 one_40 1
 y_40_12 grow 5
 y_40_12 user_1023 12
 y_40_12 rescale 1
 y_40_13 obj -790969.42499999993
 y_40_13 one_40 1
 y_40_13 grow 6
 y_40_13 user_1023 13
 y_40_13 rescale 1
 y_40_14 obj -861430.79999999993
 y_40_14 one_40 1
 y_40_14 grow 7
 y_40_14 user_1023 14
 y_40_14 rescale 1
 y_40_15 obj -931892.17499999993
 y_40_15 one_40 1
 y_40_15 grow 8
 y_40_15 user_1023 15
 y_40_15 rescale 1
 y_40_16 obj -1002353.5499999999
 y_40_16 one_40 1
 y_40_16 grow 9
 y_40_16 user_1023 16
 y_40_16 rescale 1
 y_41_0 obj 157578.735
 y_41_0 one_41 1
 y_41_0 rescale 1
 y_41_1 obj -32457
 y_41_1 one_41 1
 y_41_1 user_1022 1
 y_41_2 obj 43197.56
 y_41_2 one_41 1
 y_41_2 grow 1
 y_41_2 user_1022 2
 y_41_2 rescale 1
 y_41_3 obj 20951.909999999989
 y_41_3 one_41 1
 y_41_3 grow 2
 y_41_3 user_1022 3
 y_41_3 rescale 1
 y_41_4 obj -1293.7400000000052
 y_41_4 one_41 1
 y_41_4 grow 3
 y_41_4 user_1022 4
 y_41_4 rescale 1
 y_41_5 obj -32860.490000000005
 y_41_5 one_41 1
 y_41_5 grow 4
 y_41_5 user_1022 5
 y_41_5 rescale 1
 y_41_6 obj -64427.240000000034
 y_41_6 one_41 1
 y_41_6 grow 5
 y_41_6 user_1022 6
 y_41_6 rescale 1
 y_41_7 obj -95993.990000000034
 y_41_7 one_41 1
 y_41_7 grow 6
 y_41_7 user_1022 7
 y_41_7 rescale 1
 y_41_8 obj -127560.74
 y_41_8 one_41 1
 y_41_8 grow 7
 y_41_8 user_1022 8
 y_41_8 rescale 1
 y_42_0 obj 1131132.682
 y_42_0 one_42 1
 y_42_0 rescale 1
 y_42_1 obj 1072812.0153333333
 y_42_1 one_42 1
 y_42_1 rescale 1
 y_42_2 obj 1014491.3486666667
 y_42_2 one_42 1
 y_42_2 rescale 1
 y_42_3 obj 956170.682
 y_42_3 one_42 1
 y_42_3 rescale 1
 y_42_4 obj 902050.682
 y_42_4 one_42 1
 y_42_4 rescale 1
 y_42_5 obj 843952.682
 y_42_5 one_42 1
 y_42_5 rescale 1
 y_42_6 obj 785854.682
 y_42_6 one_42 1
 y_42_6 rescale 1
 y_42_7 obj 727756.682
 y_42_7 one_42 1
 y_42_7 rescale 1
 y_42_8 obj 674678.34866666666
 y_42_8 one_42 1
 y_42_8 rescale 1
 y_42_9 obj 621600.01533333329
 y_42_9 one_42 1
 y_42_9 rescale 1
 y_42_10 obj 568521.682
 y_42_10 one_42 1
 y_42_10 rescale 1
 y_42_11 obj 515443.34866666666
 y_42_11 one_42 1
 y_42_11 rescale 1
 y_42_12 obj 462365.0153333334
 y_42_12 one_42 1
 y_42_12 rescale 1
 y_42_13 obj -721846
 y_42_13 one_42 1
 y_42_14 obj -285123.258
 y_42_14 one_42 1
 y_42_14 grow 1
 y_42_14 rescale 1
 y_42_15 obj -337090.258
 y_42_15 one_42 1
 y_42_15 grow 2
 y_42_15 rescale 1
 y_42_16 obj -389057.258
 y_42_16 one_42 1
 y_42_16 grow 3
 y_42_16 rescale 1
 y_43_0 obj 17014.800000000003
 y_43_0 one_43 1
 y_43_0 rescale 1
 y_43_1 obj -14179
 y_43_1 one_43 1
 y_43_2 obj -627.85000000000218
 y_43_2 one_43 1
 y_43_2 grow 1
 y_43_2 rescale 1
 y_43_3 obj -12598.899999999998
 y_43_3 one_43 1
 y_43_3 grow 2
 y_43_3 rescale 1
 y_43_4 obj -25354.080000000005
 y_43_4 one_43 1
 y_43_4 grow 3
 y_43_4 rescale 1
 y_43_5 obj -38109.260000000009
 y_43_5 one_43 1
 y_43_5 grow 4
 y_43_5 rescale 1
 y_43_6 obj -50864.440000000017
 y_43_6 one_43 1
 y_43_6 grow 5
 y_43_6 rescale 1
 y_43_7 obj -63619.62000000001
 y_43_7 one_43 1
 y_43_7 grow 6
 y_43_7 rescale 1
 y_43_8 obj -76374.8
 y_43_8 one_43 1
 y_43_8 grow 7
 y_43_8 rescale 1
 y_44_0 obj 91158.6
 y_44_0 one_44 1
 y_44_0 rescale 1
 y_44_1 obj 80473.700000000012
 y_44_1 one_44 1
 y_44_1 rescale 1
 y_44_2 obj 71400.200000000012
 y_44_2 one_44 1
 y_44_2 rescale 1
 y_44_3 obj 62367.850000000006
 y_44_3 one_44 1
 y_44_3 rescale 1
 y_44_4 obj 53335.500000000007
 y_44_4 one_44 1
 y_44_4 rescale 1
 y_44_5 obj 43799.900000000009
 y_44_5 one_44 1
 y_44_5 rescale 1
 y_44_6 obj 34264.3
 y_44_6 one_44 1
 y_44_6 rescale 1
 y_44_7 obj 24728.700000000012
 y_44_7 one_44 1
 y_44_7 rescale 1
 y_44_8 obj -75965.5
 y_44_8 one_44 1
 y_45_0 obj 464482.80000000005
 y_45_0 one_45 1
 y_45_0 rescale 1
 y_45_1 obj 436172.60000000003
 y_45_1 one_45 1
 y_45_1 rescale 1
 y_45_2 obj 409670.20000000007
 y_45_2 one_45 1
 y_45_2 rescale 1
 y_45_3 obj 384256.00000000006
 y_45_3 one_45 1
 y_45_3 rescale 1
 y_45_4 obj 358841.80000000005
 y_45_4 one_45 1
 y_45_4 rescale 1
 y_45_5 obj 334419.05000000005
 y_45_5 one_45 1
 y_45_5 rescale 1
 y_45_6 obj 309996.30000000005
 y_45_6 one_45 1
 y_45_6 rescale 1
 y_45_7 obj 285573.55000000005
 y_45_7 one_45 1
 y_45_7 rescale 1
 y_45_8 obj 261150.80000000005
 y_45_8 one_45 1
 y_45_8 rescale 1
 y_45_9 obj 237849.80000000002
 y_45_9 one_45 1
 y_45_9 rescale 1
 y_45_10 obj 214548.80000000005
 y_45_10 one_45 1
 y_45_10 rescale 1
 y_45_11 obj 191692.96666666673
 y_45_11 one_45 1
 y_45_11 rescale 1
 y_45_12 obj 168837.13333333336
 y_45_12 one_45 1
 y_45_12 rescale 1
 y_45_13 obj 145981.30000000005
 y_45_13 one_45 1
 y_45_13 rescale 1
 y_45_14 obj 123125.46666666667
 y_45_14 one_45 1
 y_45_14 rescale 1
 y_45_15 obj 100269.63333333342
 y_45_15 one_45 1
 y_45_15 rescale 1
 y_45_16 obj -387069
 y_45_16 one_45 1
 y_46_0 one_46 1
 y_46_1 obj -32477.800000000003
 y_46_1 one_46 1
 y_46_1 grow 1
 y_46_1 user_1000 1
 y_46_1 rescale 1
 y_46_2 obj -60015.4
 y_46_2 one_46 1
 y_46_2 grow 2
 y_46_2 user_1000 2
 y_46_2 rescale 1
 y_46_3 obj -87452
 y_46_3 one_46 1
 y_46_3 grow 3
 y_46_3 user_1000 3
 y_46_3 rescale 1
 y_46_4 obj -108358.09636514705
 y_46_4 one_46 1
 y_46_4 grow 4
 y_46_4 user_1000 4
 y_46_4 rescale 1
 y_46_5 obj -129264.19273029409
 y_46_5 one_46 1
 y_46_5 grow 5
 y_46_5 user_1000 5
 y_46_5 rescale 1
 y_46_6 obj -150170.28909544111
 y_46_6 one_46 1
 y_46_6 grow 6
 y_46_6 user_1000 6
 y_46_6 rescale 1
 y_46_7 obj -171076.38546058815
 y_46_7 one_46 1
 y_46_7 grow 7
 y_46_7 user_1000 7
 y_46_7 rescale 1
 y_46_8 obj -191982.48182573519
 y_46_8 one_46 1
 y_46_8 grow 8
 y_46_8 user_1000 8
 y_46_8 rescale 1
 y_47_0 one_47 1
 y_47_1 obj -9899.06
 y_47_1 one_47 1
 y_47_1 grow 1
 y_47_1 user_1012 1
 y_47_1 rescale 1
 y_47_2 obj -19524.6
 y_47_2 one_47 1
 y_47_2 grow 2
 y_47_2 user_1012 2
 y_47_2 rescale 1
 y_47_3 obj -28761.922850463565
 y_47_3 one_47 1
 y_47_3 grow 3
 y_47_3 user_1012 3
 y_47_3 rescale 1
 y_47_4 obj -37999.245700927131
 y_47_4 one_47 1
 y_47_4 grow 4
 y_47_4 user_1012 4
 y_47_4 rescale 1
 y_47_5 obj -46529.474446432359
 y_47_5 one_47 1
 y_47_5 grow 5
 y_47_5 user_1012 5
 y_47_5 rescale 1
 y_47_6 obj -55059.703191937588
 y_47_6 one_47 1
 y_47_6 grow 6
 y_47_6 user_1012 6
 y_47_6 rescale 1
 y_47_7 obj -63589.931937442823
 y_47_7 one_47 1
 y_47_7 grow 7
 y_47_7 user_1012 7
 y_47_7 rescale 1
 y_47_8 obj -72120.160682948059
 y_47_8 one_47 1
 y_47_8 grow 8
 y_47_8 user_1012 8
 y_47_8 rescale 1
 y_47_9 obj -79465.39792424145
 y_47_9 one_47 1
 y_47_9 grow 9
 y_47_9 user_1012 9
 y_47_9 rescale 1
 y_47_10 obj -86810.635165534841
 y_47_10 one_47 1
 y_47_10 grow 10
 y_47_10 user_1012 10
 y_47_10 rescale 1
 y_47_11 obj -94155.872406828246
 y_47_11 one_47 1
 y_47_11 grow 11
 y_47_11 user_1012 11
 y_47_11 rescale 1
 y_47_12 obj -101501.10964812164
 y_47_12 one_47 1
 y_47_12 grow 12
 y_47_12 user_1012 12
 y_47_12 rescale 1
 y_47_13 obj -108846.34688941503
 y_47_13 one_47 1
 y_47_13 grow 13
 y_47_13 user_1012 13
 y_47_13 rescale 1
 y_47_14 obj -116191.58413070843
 y_47_14 one_47 1
 y_47_14 grow 14
 y_47_14 user_1012 14
 y_47_14 rescale 1
 y_47_15 obj -123536.82137200181
 y_47_15 one_47 1
 y_47_15 grow 15
 y_47_15 user_1012 15
 y_47_15 rescale 1
 y_47_16 obj -130882.05861329522
 y_47_16 one_47 1
 y_47_16 grow 16
 y_47_16 user_1012 16
 y_47_16 rescale 1
 y_48_0 obj 37742.88
 y_48_0 one_48 1
 y_48_0 rescale 1
 y_48_1 obj -31452.399999999998
 y_48_1 one_48 1
 y_48_1 user_1015 1
 y_48_2 obj -6290.4800000000032
 y_48_2 one_48 1
 y_48_2 grow 1
 y_48_2 user_1015 2
 y_48_2 rescale 1
 y_48_3 obj -37742.880000000005
 y_48_3 one_48 1
 y_48_3 grow 2
 y_48_3 user_1015 3
 y_48_3 rescale 1
 y_48_4 obj -69195.28
 y_48_4 one_48 1
 y_48_4 grow 3
 y_48_4 user_1015 4
 y_48_4 rescale 1
 y_48_5 obj -100647.68000000001
 y_48_5 one_48 1
 y_48_5 grow 4
 y_48_5 user_1015 5
 y_48_5 rescale 1
 y_48_6 obj -132100.08000000002
 y_48_6 one_48 1
 y_48_6 grow 5
 y_48_6 user_1015 6
 y_48_6 rescale 1
 y_48_7 obj -163552.47999999998
 y_48_7 one_48 1
 y_48_7 grow 6
 y_48_7 user_1015 7
 y_48_7 rescale 1
 y_48_8 obj -195004.88
 y_48_8 one_48 1
 y_48_8 grow 7
 y_48_8 user_1015 8
 y_48_8 rescale 1
 y_48_9 obj -226457.27999999997
 y_48_9 one_48 1
 y_48_9 grow 8
 y_48_9 user_1015 9
 y_48_9 rescale 1
 y_48_10 obj -257909.68
 y_48_10 one_48 1
 y_48_10 grow 9
 y_48_10 user_1015 10
 y_48_10 rescale 1
 y_48_11 obj -289362.08
 y_48_11 one_48 1
 y_48_11 grow 10
 y_48_11 user_1015 11
 y_48_11 rescale 1
 y_48_12 obj -320814.48
 y_48_12 one_48 1
 y_48_12 grow 11
 y_48_12 user_1015 12
 y_48_12 rescale 1
 y_48_13 obj -352266.87999999995
 y_48_13 one_48 1
 y_48_13 grow 12
 y_48_13 user_1015 13
 y_48_13 rescale 1
 y_48_14 obj -383719.27999999997
 y_48_14 one_48 1
 y_48_14 grow 13
 y_48_14 user_1015 14
 y_48_14 rescale 1
 y_48_15 obj -415171.68
 y_48_15 one_48 1
 y_48_15 grow 14
 y_48_15 user_1015 15
 y_48_15 rescale 1
 y_48_16 obj -446624.07999999996
 y_48_16 one_48 1
 y_48_16 grow 15
 y_48_16 user_1015 16
 y_48_16 rescale 1
 y_49_0 obj 666561.4439999999
 y_49_0 one_49 1
 y_49_0 rescale 1
 y_49_1 obj 595409.64399999985
 y_49_1 one_49 1
 y_49_1 user_1015 1
 y_49_1 rescale 1
 y_49_2 obj 529433.4439999999
 y_49_2 one_49 1
 y_49_2 user_1015 2
 y_49_2 rescale 1
 y_49_3 obj 479402.9439999999
 y_49_3 one_49 1
 y_49_3 user_1015 3
 y_49_3 rescale 1
 y_49_4 obj 429372.4439999999
 y_49_4 one_49 1
 y_49_4 user_1015 4
 y_49_4 rescale 1
 y_49_5 obj 394092.9439999999
 y_49_5 one_49 1
 y_49_5 user_1015 5
 y_49_5 rescale 1
 y_49_6 obj 358813.4439999999
 y_49_6 one_49 1
 y_49_6 user_1015 6
 y_49_6 rescale 1
 y_49_7 obj 310262.4439999999
 y_49_7 one_49 1
 y_49_7 user_1015 7
 y_49_7 rescale 1
 y_49_8 obj 261711.4439999999
 y_49_8 one_49 1
 y_49_8 user_1015 8
 y_49_8 rescale 1
 y_49_9 obj -446757
 y_49_9 one_49 1
 y_49_9 user_1015 9
 y_49_10 obj 315960.6
 y_49_10 one_49 1
 y_49_10 grow 1
 y_49_10 user_1015 10
 y_49_10 rescale 1
 y_49_11 obj 268275.93333333335
 y_49_11 one_49 1
 y_49_11 grow 2
 y_49_11 user_1015 11
 y_49_11 rescale 1
 y_49_12 obj 220591.26666666672
 y_49_12 one_49 1
 y_49_12 grow 3
 y_49_12 user_1015 12
 y_49_12 rescale 1
 y_49_13 obj 172906.59999999998
 y_49_13 one_49 1
 y_49_13 grow 4
 y_49_13 user_1015 13
 y_49_13 rescale 1
 y_49_14 obj 125221.93333333335
 y_49_14 one_49 1
 y_49_14 grow 5
 y_49_14 user_1015 14
 y_49_14 rescale 1
 y_49_15 obj 77537.266666666721
 y_49_15 one_49 1
 y_49_15 grow 6
 y_49_15 user_1015 15
 y_49_15 rescale 1
 y_49_16 obj 29852.599999999977
 y_49_16 one_49 1
 y_49_16 grow 7
 y_49_16 user_1015 16
 y_49_16 rescale 1
 MARKER 'MARKER' 'INTEND'
RHS
 rhs grow 20
 rhs one_0 1
 rhs one_1 1
 rhs one_2 1
 rhs one_3 1
 rhs one_4 1
 rhs one_5 1
 rhs one_6 1
 rhs one_7 1
 rhs one_8 1
 rhs one_9 1
 rhs one_10 1
 rhs one_11 1
 rhs one_12 1
 rhs one_13 1
 rhs one_14 1
 rhs one_15 1
 rhs one_16 1
 rhs one_17 1
 rhs one_18 1
 rhs one_19 1
 rhs one_20 1
 rhs one_21 1
 rhs one_22 1
 rhs one_23 1
 rhs one_24 1
 rhs one_25 1
 rhs one_26 1
 rhs one_27 1
 rhs one_28 1
 rhs one_29 1
 rhs one_30 1
 rhs one_31 1
 rhs one_32 1
 rhs one_33 1
 rhs one_34 1
 rhs one_35 1
 rhs one_36 1
 rhs one_37 1
 rhs one_38 1
 rhs one_39 1
 rhs one_40 1
 rhs one_41 1
 rhs one_42 1
 rhs one_43 1
 rhs one_44 1
 rhs one_45 1
 rhs one_46 1
 rhs one_47 1
 rhs one_48 1
 rhs one_49 1
 rhs user_1000 81
 rhs user_1001 46
 rhs user_1003 43
 rhs user_1004 20
 rhs user_1010 18
 rhs user_1012 13
 rhs user_1014 24
 rhs user_1015 10
 rhs user_1016 17
 rhs user_1018 20
 rhs user_1019 7
 rhs user_1022 11
 rhs user_1023 7
 rhs user_1032 1
 rhs user_1033 2
 rhs group_0 16
 rhs rescale 6
BOUNDS
 UP bnd y_0_0 0
 UP bnd y_0_1 0
 UP bnd y_0_2 0
 UP bnd y_0_3 0
 UP bnd y_0_4 0
 UP bnd y_0_5 0
 UP bnd y_0_6 0
 UP bnd y_0_7 0
 UP bnd y_0_8 0
 UP bnd y_0_9 0
 UP bnd y_0_10 0
 UP bnd y_0_11 0
 UP bnd y_0_12 0
 UP bnd y_0_13 0
 UP bnd y_0_14 0
 UP bnd y_0_15 0
 BV bnd y_0_16
 UP bnd y_1_0 0
 UP bnd y_1_1 0
 UP bnd y_1_2 0
 UP bnd y_1_3 0
 BV bnd y_1_4
 UP bnd y_1_5 0
 UP bnd y_1_6 0
 UP bnd y_1_7 0
 UP bnd y_1_8 0
 UP bnd y_1_9 0
 UP bnd y_1_10 0
 UP bnd y_1_11 0
 UP bnd y_1_12 0
 UP bnd y_1_13 0
 UP bnd y_1_14 0
 UP bnd y_1_15 0
 UP bnd y_1_16 0
 UP bnd y_2_0 0
 UP bnd y_2_1 0
 UP bnd y_2_2 0
 UP bnd y_2_3 0
 UP bnd y_2_4 0
 UP bnd y_2_5 0
 UP bnd y_2_6 0
 UP bnd y_2_7 0
 BV bnd y_2_8
 UP bnd y_3_0 0
 UP bnd y_3_1 0
 UP bnd y_3_2 0
 UP bnd y_3_3 0
 UP bnd y_3_4 0
 UP bnd y_3_5 0
 UP bnd y_3_6 0
 UP bnd y_3_7 0
 UP bnd y_3_8 0
 UP bnd y_3_9 0
 UP bnd y_3_10 0
 UP bnd y_3_11 0
 UP bnd y_3_12 0
 BV bnd y_3_13
 UP bnd y_3_14 0
 UP bnd y_3_15 0
 UP bnd y_3_16 0
 BV bnd y_4_0
 UP bnd y_4_1 0
 UP bnd y_4_2 0
 UP bnd y_4_3 0
 UP bnd y_4_4 0
 UP bnd y_4_5 0
 UP bnd y_4_6 0
 BV bnd y_4_7
 UP bnd y_4_8 0
 UP bnd y_5_0 0
 UP bnd y_5_1 0
 UP bnd y_5_2 0
 UP bnd y_5_3 0
 UP bnd y_5_4 0
 UP bnd y_5_5 0
 UP bnd y_5_6 0
 UP bnd y_5_7 0
 UP bnd y_5_8 0
 UP bnd y_5_9 0
 UP bnd y_5_10 0
 UP bnd y_5_11 0
 UP bnd y_5_12 0
 UP bnd y_5_13 0
 UP bnd y_5_14 0
 BV bnd y_5_15
 UP bnd y_5_16 0
 UP bnd y_6_0 0
 UP bnd y_6_1 0
 UP bnd y_6_2 0
 UP bnd y_6_3 0
 UP bnd y_6_4 0
 UP bnd y_6_5 0
 UP bnd y_6_6 0
 BV bnd y_6_7
 BV bnd y_6_8
 UP bnd y_7_0 0
 BV bnd y_7_1
 UP bnd y_7_2 0
 UP bnd y_7_3 0
 UP bnd y_7_4 0
 UP bnd y_7_5 0
 UP bnd y_7_6 0
 UP bnd y_7_7 0
 UP bnd y_7_8 0
 UP bnd y_7_9 0
 UP bnd y_7_10 0
 UP bnd y_7_11 0
 UP bnd y_7_12 0
 UP bnd y_7_13 0
 UP bnd y_7_14 0
 UP bnd y_7_15 0
 UP bnd y_7_16 0
 UP bnd y_8_0 0
 BV bnd y_8_1
 UP bnd y_8_2 0
 UP bnd y_8_3 0
 UP bnd y_8_4 0
 UP bnd y_8_5 0
 UP bnd y_8_6 0
 UP bnd y_8_7 0
 UP bnd y_8_8 0
 UP bnd y_9_0 0
 BV bnd y_9_1
 UP bnd y_9_2 0
 UP bnd y_9_3 0
 UP bnd y_9_4 0
 UP bnd y_9_5 0
 UP bnd y_9_6 0
 BV bnd y_9_7
 BV bnd y_9_8
 BV bnd y_10_0
 UP bnd y_10_1 0
 UP bnd y_10_2 0
 UP bnd y_10_3 0
 UP bnd y_10_4 0
 UP bnd y_10_5 0
 UP bnd y_10_6 0
 UP bnd y_10_7 0
 UP bnd y_10_8 0
 UP bnd y_10_9 0
 UP bnd y_10_10 0
 UP bnd y_10_11 0
 UP bnd y_10_12 0
 UP bnd y_10_13 0
 UP bnd y_10_14 0
 UP bnd y_10_15 0
 UP bnd y_10_16 0
 UP bnd y_11_0 0
 UP bnd y_11_1 0
 UP bnd y_11_2 0
 UP bnd y_11_3 0
 UP bnd y_11_4 0
 UP bnd y_11_5 0
 UP bnd y_11_6 0
 UP bnd y_11_7 0
 UP bnd y_11_8 0
 UP bnd y_11_9 0
 UP bnd y_11_10 0
 UP bnd y_11_11 0
 UP bnd y_11_12 0
 UP bnd y_11_13 0
 UP bnd y_11_14 0
 BV bnd y_11_15
 UP bnd y_11_16 0
 UP bnd y_12_0 0
 UP bnd y_12_1 0
 BV bnd y_12_2
 UP bnd y_12_3 0
 UP bnd y_12_4 0
 UP bnd y_12_5 0
 UP bnd y_12_6 0
 UP bnd y_12_7 0
 UP bnd y_12_8 0
 UP bnd y_13_0 0
 UP bnd y_13_1 0
 UP bnd y_13_2 0
 UP bnd y_13_3 0
 UP bnd y_13_4 0
 UP bnd y_13_5 0
 UP bnd y_13_6 0
 UP bnd y_13_7 0
 BV bnd y_13_8
 UP bnd y_13_9 0
 UP bnd y_13_10 0
 UP bnd y_13_11 0
 UP bnd y_13_12 0
 UP bnd y_13_13 0
 UP bnd y_13_14 0
 UP bnd y_13_15 0
 UP bnd y_13_16 0
 UP bnd y_14_0 0
 BV bnd y_14_1
 UP bnd y_14_2 0
 UP bnd y_14_3 0
 UP bnd y_14_4 0
 UP bnd y_14_5 0
 UP bnd y_14_6 0
 UP bnd y_14_7 0
 UP bnd y_14_8 0
 UP bnd y_15_0 0
 BV bnd y_15_1
 UP bnd y_15_2 0
 UP bnd y_15_3 0
 UP bnd y_15_4 0
 UP bnd y_15_5 0
 UP bnd y_15_6 0
 UP bnd y_15_7 0
 UP bnd y_15_8 0
 UP bnd y_15_9 0
 UP bnd y_15_10 0
 UP bnd y_15_11 0
 UP bnd y_15_12 0
 UP bnd y_15_13 0
 UP bnd y_15_14 0
 UP bnd y_15_15 0
 UP bnd y_15_16 0
 UP bnd y_16_0 0
 UP bnd y_16_1 0
 BV bnd y_16_2
 UP bnd y_16_3 0
 UP bnd y_16_4 0
 UP bnd y_16_5 0
 UP bnd y_16_6 0
 UP bnd y_16_7 0
 UP bnd y_16_8 0
 UP bnd y_16_9 0
 UP bnd y_16_10 0
 UP bnd y_16_11 0
 UP bnd y_16_12 0
 UP bnd y_16_13 0
 UP bnd y_16_14 0
 UP bnd y_16_15 0
 UP bnd y_16_16 0
 UP bnd y_17_0 0
 BV bnd y_17_1
 UP bnd y_17_2 0
 UP bnd y_17_3 0
 UP bnd y_17_4 0
 UP bnd y_17_5 0
 UP bnd y_17_6 0
 UP bnd y_17_7 0
 UP bnd y_17_8 0
 UP bnd y_17_9 0
 UP bnd y_17_10 0
 UP bnd y_17_11 0
 UP bnd y_17_12 0
 UP bnd y_17_13 0
 UP bnd y_17_14 0
 UP bnd y_17_15 0
 UP bnd y_17_16 0
 UP bnd y_18_0 0
 UP bnd y_18_1 0
 UP bnd y_18_2 0
 UP bnd y_18_3 0
 UP bnd y_18_4 0
 UP bnd y_18_5 0
 UP bnd y_18_6 0
 UP bnd y_18_7 0
 BV bnd y_18_8
 BV bnd y_19_0
 UP bnd y_19_1 0
 UP bnd y_19_2 0
 UP bnd y_19_3 0
 UP bnd y_19_4 0
 UP bnd y_19_5 0
 UP bnd y_19_6 0
 UP bnd y_19_7 0
 UP bnd y_19_8 0
 UP bnd y_19_9 0
 UP bnd y_19_10 0
 UP bnd y_19_11 0
 UP bnd y_19_12 0
 UP bnd y_19_13 0
 UP bnd y_19_14 0
 UP bnd y_19_15 0
 UP bnd y_19_16 0
 BV bnd y_20_0
 UP bnd y_20_1 0
 UP bnd y_20_2 0
 UP bnd y_20_3 0
 UP bnd y_20_4 0
 UP bnd y_20_5 0
 UP bnd y_20_6 0
 BV bnd y_20_7
 UP bnd y_20_8 0
 BV bnd y_21_0
 UP bnd y_21_1 0
 UP bnd y_21_2 0
 UP bnd y_21_3 0
 UP bnd y_21_4 0
 UP bnd y_21_5 0
 UP bnd y_21_6 0
 UP bnd y_21_7 0
 UP bnd y_21_8 0
 BV bnd y_22_0
 UP bnd y_22_1 0
 UP bnd y_22_2 0
 UP bnd y_22_3 0
 UP bnd y_22_4 0
 UP bnd y_22_5 0
 UP bnd y_22_6 0
 UP bnd y_22_7 0
 UP bnd y_22_8 0
 UP bnd y_22_9 0
 UP bnd y_22_10 0
 UP bnd y_22_11 0
 UP bnd y_22_12 0
 UP bnd y_22_13 0
 UP bnd y_22_14 0
 UP bnd y_22_15 0
 UP bnd y_22_16 0
 UP bnd y_22_17 0
 UP bnd y_22_18 0
 UP bnd y_22_19 0
 UP bnd y_22_20 0
 UP bnd y_23_0 0
 UP bnd y_23_1 0
 BV bnd y_23_2
 UP bnd y_23_3 0
 UP bnd y_23_4 0
 UP bnd y_23_5 0
 UP bnd y_23_6 0
 UP bnd y_23_7 0
 UP bnd y_23_8 0
 UP bnd y_23_9 0
 UP bnd y_23_10 0
 UP bnd y_23_11 0
 UP bnd y_23_12 0
 UP bnd y_23_13 0
 UP bnd y_23_14 0
 UP bnd y_23_15 0
 UP bnd y_23_16 0
 UP bnd y_24_0 0
 UP bnd y_24_1 0
 BV bnd y_24_2
 UP bnd y_24_3 0
 UP bnd y_24_4 0
 UP bnd y_24_5 0
 UP bnd y_24_6 0
 UP bnd y_24_7 0
 UP bnd y_24_8 0
 UP bnd y_24_9 0
 UP bnd y_24_10 0
 UP bnd y_24_11 0
 UP bnd y_24_12 0
 UP bnd y_24_13 0
 UP bnd y_24_14 0
 UP bnd y_24_15 0
 UP bnd y_24_16 0
 UP bnd y_25_0 0
 UP bnd y_25_1 0
 BV bnd y_25_2
 UP bnd y_25_3 0
 UP bnd y_25_4 0
 UP bnd y_25_5 0
 UP bnd y_25_6 0
 UP bnd y_25_7 0
 UP bnd y_25_8 0
 UP bnd y_25_9 0
 UP bnd y_25_10 0
 UP bnd y_25_11 0
 UP bnd y_25_12 0
 UP bnd y_25_13 0
 UP bnd y_25_14 0
 UP bnd y_25_15 0
 UP bnd y_25_16 0
 UP bnd y_25_17 0
 UP bnd y_25_18 0
 UP bnd y_25_19 0
 UP bnd y_25_20 0
 UP bnd y_25_21 0
 UP bnd y_25_22 0
 UP bnd y_26_0 0
 UP bnd y_26_1 0
 UP bnd y_26_2 0
 BV bnd y_26_3
 UP bnd y_26_4 0
 UP bnd y_26_5 0
 UP bnd y_26_6 0
 UP bnd y_26_7 0
 UP bnd y_26_8 0
 UP bnd y_27_0 0
 BV bnd y_27_1
 UP bnd y_27_2 0
 UP bnd y_27_3 0
 UP bnd y_27_4 0
 UP bnd y_27_5 0
 UP bnd y_27_6 0
 UP bnd y_27_7 0
 UP bnd y_27_8 0
 BV bnd y_28_0
 UP bnd y_28_1 0
 UP bnd y_28_2 0
 UP bnd y_28_3 0
 UP bnd y_28_4 0
 UP bnd y_28_5 0
 UP bnd y_28_6 0
 UP bnd y_28_7 0
 UP bnd y_28_8 0
 UP bnd y_28_9 0
 UP bnd y_28_10 0
 UP bnd y_28_11 0
 UP bnd y_28_12 0
 UP bnd y_28_13 0
 UP bnd y_28_14 0
 UP bnd y_28_15 0
 UP bnd y_28_16 0
 UP bnd y_29_0 0
 BV bnd y_29_1
 UP bnd y_29_2 0
 UP bnd y_29_3 0
 UP bnd y_29_4 0
 UP bnd y_29_5 0
 UP bnd y_29_6 0
 UP bnd y_29_7 0
 UP bnd y_29_8 0
 UP bnd y_29_9 0
 UP bnd y_29_10 0
 UP bnd y_29_11 0
 UP bnd y_29_12 0
 UP bnd y_29_13 0
 UP bnd y_29_14 0
 UP bnd y_29_15 0
 UP bnd y_29_16 0
 BV bnd y_30_0
 UP bnd y_30_1 0
 UP bnd y_30_2 0
 UP bnd y_30_3 0
 UP bnd y_30_4 0
 UP bnd y_30_5 0
 UP bnd y_30_6 0
 UP bnd y_30_7 0
 UP bnd y_30_8 0
 UP bnd y_30_9 0
 UP bnd y_30_10 0
 UP bnd y_30_11 0
 UP bnd y_30_12 0
 UP bnd y_30_13 0
 UP bnd y_30_14 0
 UP bnd y_30_15 0
 UP bnd y_30_16 0
 UP bnd y_30_17 0
 UP bnd y_30_18 0
 UP bnd y_30_19 0
 UP bnd y_30_20 0
 BV bnd y_31_0
 UP bnd y_31_1 0
 UP bnd y_31_2 0
 UP bnd y_31_3 0
 UP bnd y_31_4 0
 UP bnd y_31_5 0
 UP bnd y_31_6 0
 UP bnd y_31_7 0
 UP bnd y_31_8 0
 UP bnd y_31_9 0
 UP bnd y_31_10 0
 UP bnd y_31_11 0
 UP bnd y_31_12 0
 UP bnd y_31_13 0
 UP bnd y_31_14 0
 UP bnd y_31_15 0
 UP bnd y_31_16 0
 UP bnd y_32_0 0
 UP bnd y_32_1 0
 UP bnd y_32_2 0
 UP bnd y_32_3 0
 UP bnd y_32_4 0
 UP bnd y_32_5 0
 UP bnd y_32_6 0
 UP bnd y_32_7 0
 UP bnd y_32_8 0
 UP bnd y_32_9 0
 UP bnd y_32_10 0
 UP bnd y_32_11 0
 UP bnd y_32_12 0
 UP bnd y_32_13 0
 UP bnd y_32_14 0
 BV bnd y_32_15
 UP bnd y_32_16 0
 BV bnd y_33_0
 BV bnd y_33_1
 UP bnd y_33_2 0
 UP bnd y_33_3 0
 UP bnd y_33_4 0
 UP bnd y_33_5 0
 UP bnd y_33_6 0
 UP bnd y_33_7 0
 UP bnd y_33_8 0
 UP bnd y_34_0 0
 UP bnd y_34_1 0
 UP bnd y_34_2 0
 UP bnd y_34_3 0
 UP bnd y_34_4 0
 UP bnd y_34_5 0
 UP bnd y_34_6 0
 BV bnd y_34_7
 UP bnd y_34_8 0
 UP bnd y_34_9 0
 UP bnd y_34_10 0
 UP bnd y_34_11 0
 UP bnd y_34_12 0
 UP bnd y_34_13 0
 UP bnd y_34_14 0
 UP bnd y_34_15 0
 UP bnd y_34_16 0
 UP bnd y_35_0 0
 BV bnd y_35_1
 UP bnd y_35_2 0
 UP bnd y_35_3 0
 UP bnd y_35_4 0
 UP bnd y_35_5 0
 UP bnd y_35_6 0
 UP bnd y_35_7 0
 UP bnd y_35_8 0
 UP bnd y_36_0 0
 UP bnd y_36_1 0
 UP bnd y_36_2 0
 UP bnd y_36_3 0
 UP bnd y_36_4 0
 UP bnd y_36_5 0
 UP bnd y_36_6 0
 UP bnd y_36_7 0
 BV bnd y_36_8
 UP bnd y_37_0 0
 UP bnd y_37_1 0
 UP bnd y_37_2 0
 UP bnd y_37_3 0
 UP bnd y_37_4 0
 UP bnd y_37_5 0
 UP bnd y_37_6 0
 UP bnd y_37_7 0
 UP bnd y_37_8 0
 UP bnd y_37_9 0
 UP bnd y_37_10 0
 UP bnd y_37_11 0
 UP bnd y_37_12 0
 UP bnd y_37_13 0
 UP bnd y_37_14 0
 BV bnd y_37_15
 UP bnd y_37_16 0
 UP bnd y_38_0 0
 UP bnd y_38_1 0
 UP bnd y_38_2 0
 BV bnd y_38_3
 UP bnd y_38_4 0
 UP bnd y_38_5 0
 UP bnd y_38_6 0
 UP bnd y_38_7 0
 UP bnd y_38_8 0
 UP bnd y_39_0 0
 UP bnd y_39_1 0
 UP bnd y_39_2 0
 BV bnd y_39_3
 UP bnd y_39_4 0
 UP bnd y_39_5 0
 UP bnd y_39_6 0
 UP bnd y_39_7 0
 UP bnd y_39_8 0
 UP bnd y_39_9 0
 UP bnd y_39_10 0
 UP bnd y_39_11 0
 UP bnd y_39_12 0
 UP bnd y_39_13 0
 UP bnd y_39_14 0
 UP bnd y_39_15 0
 UP bnd y_39_16 0
 UP bnd y_39_17 0
 UP bnd y_39_18 0
 UP bnd y_39_19 0
 UP bnd y_39_20 0
 UP bnd y_39_21 0
 UP bnd y_39_22 0
 UP bnd y_39_23 0
 UP bnd y_40_0 0
 UP bnd y_40_1 0
 UP bnd y_40_2 0
 UP bnd y_40_3 0
 UP bnd y_40_4 0
 UP bnd y_40_5 0
 UP bnd y_40_6 0
 BV bnd y_40_7
 UP bnd y_40_8 0
 UP bnd y_40_9 0
 UP bnd y_40_10 0
 UP bnd y_40_11 0
 UP bnd y_40_12 0
 UP bnd y_40_13 0
 UP bnd y_40_14 0
 UP bnd y_40_15 0
 UP bnd y_40_16 0
 UP bnd y_41_0 0
 BV bnd y_41_1
 UP bnd y_41_2 0
 UP bnd y_41_3 0
 UP bnd y_41_4 0
 UP bnd y_41_5 0
 UP bnd y_41_6 0
 UP bnd y_41_7 0
 BV bnd y_41_8
 UP bnd y_42_0 0
 UP bnd y_42_1 0
 UP bnd y_42_2 0
 UP bnd y_42_3 0
 UP bnd y_42_4 0
 UP bnd y_42_5 0
 UP bnd y_42_6 0
 UP bnd y_42_7 0
 UP bnd y_42_8 0
 UP bnd y_42_9 0
 UP bnd y_42_10 0
 UP bnd y_42_11 0
 UP bnd y_42_12 0
 BV bnd y_42_13
 UP bnd y_42_14 0
 UP bnd y_42_15 0
 UP bnd y_42_16 0
 UP bnd y_43_0 0
 BV bnd y_43_1
 UP bnd y_43_2 0
 UP bnd y_43_3 0
 UP bnd y_43_4 0
 UP bnd y_43_5 0
 UP bnd y_43_6 0
 UP bnd y_43_7 0
 UP bnd y_43_8 0
 UP bnd y_44_0 0
 UP bnd y_44_1 0
 UP bnd y_44_2 0
 UP bnd y_44_3 0
 UP bnd y_44_4 0
 UP bnd y_44_5 0
 UP bnd y_44_6 0
 UP bnd y_44_7 0
 BV bnd y_44_8
 UP bnd y_45_0 0
 UP bnd y_45_1 0
 UP bnd y_45_2 0
 UP bnd y_45_3 0
 UP bnd y_45_4 0
 UP bnd y_45_5 0
 UP bnd y_45_6 0
 UP bnd y_45_7 0
 UP bnd y_45_8 0
 UP bnd y_45_9 0
 UP bnd y_45_10 0
 UP bnd y_45_11 0
 UP bnd y_45_12 0
 UP bnd y_45_13 0
 UP bnd y_45_14 0
 UP bnd y_45_15 0
 BV bnd y_45_16
 UP bnd y_46_0 0
 UP bnd y_46_1 0
 UP bnd y_46_2 0
 UP bnd y_46_3 0
 UP bnd y_46_4 0
 UP bnd y_46_5 0
 UP bnd y_46_6 0
 BV bnd y_46_7
 BV bnd y_46_8
 BV bnd y_47_0
 UP bnd y_47_1 0
 UP bnd y_47_2 0
 UP bnd y_47_3 0
 UP bnd y_47_4 0
 UP bnd y_47_5 0
 UP bnd y_47_6 0
 UP bnd y_47_7 0
 UP bnd y_47_8 0
 UP bnd y_47_9 0
 UP bnd y_47_10 0
 UP bnd y_47_11 0
 UP bnd y_47_12 0
 UP bnd y_47_13 0
 UP bnd y_47_14 0
 UP bnd y_47_15 0
 UP bnd y_47_16 0
 UP bnd y_48_0 0
 BV bnd y_48_1
 UP bnd y_48_2 0
 UP bnd y_48_3 0
 UP bnd y_48_4 0
 UP bnd y_48_5 0
 UP bnd y_48_6 0
 UP bnd y_48_7 0
 UP bnd y_48_8 0
 UP bnd y_48_9 0
 UP bnd y_48_10 0
 UP bnd y_48_11 0
 UP bnd y_48_12 0
 UP bnd y_48_13 0
 UP bnd y_48_14 0
 UP bnd y_48_15 0
 UP bnd y_48_16 0
 UP bnd y_49_0 0
 UP bnd y_49_1 0
 UP bnd y_49_2 0
 UP bnd y_49_3 0
 UP bnd y_49_4 0
 UP bnd y_49_5 0
 UP bnd y_49_6 0
 UP bnd y_49_7 0
 UP bnd y_49_8 0
 BV bnd y_49_9
 UP bnd y_49_10 0
 UP bnd y_49_11 0
 UP bnd y_49_12 0
 UP bnd y_49_13 0
 UP bnd y_49_14 0
 UP bnd y_49_15 0
 UP bnd y_49_16 0
ENDATA
