sh -c 'sudo -n mlnx_qos -i eth0 --trust pcp --pfc 0,0,0,1,1,0,0,0'
